"""Date and time formats per language (settings.FORMAT_MODULE_PATH): the pages name them
(``date:"DATE_FORMAT"``...) and each language writes them its own way."""
