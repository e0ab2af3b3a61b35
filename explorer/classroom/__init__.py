"""`explorer serve`: a class in the browser, from one laptop, offline.

One classroom sandbox runs on loopback; a web server (textual-serve's) gives every browser tab that
brings the class key its own explorer process on that sandbox, so a trainer's fault or drill reaches
the whole class at once. Nothing is fetched from the internet: the page uses the font textual-serve
ships. This package sits above the sandbox and the screen, as the command line does.
"""
