"""The explorer screen's screens: the main one, the login form, help, and the dialogs and write screens it opens."""
