"""Plain text for people, shared by the screen and the command line.

What the library knows as values (a session's credentials and profile, a failure's setting, a
write policy), said in the explorer's own words: its flags, its environment variables, its
commands. The library (explorer.api) never imports this package; the screen and the commands do.
"""
