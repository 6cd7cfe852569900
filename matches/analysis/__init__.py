"""GNU Backgammon's analysis of uploaded match files: run as a separate process, never imported.

``engine`` finds and runs gnubg (one process per pass, a temporary ``$HOME``, ``LANG=C``,
a hard timeout, its CPU time and peak memory measured); ``gnubg_script`` is the script
gnubg's embedded Python runs; ``figures`` turns gnubg's statistics into the figures kept.
None of them imports Django.
"""
