"""State changes of matches: reports, files, confirmations, disputes and directors' decisions.

Each public function is keyword-only, owns its transaction, locks the match row,
and stores every report (accepted or not) as a versioned ``Submission``.
"""
