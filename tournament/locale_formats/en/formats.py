"""English (the site's default): the formats the pages used before they were named."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y H:i"
SHORT_DATETIME_FORMAT = "D j M, H:i"
TIME_FORMAT = "H:i"
