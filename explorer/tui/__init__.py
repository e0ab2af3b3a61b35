"""The explorer screen: Textual widgets on top of explorer.api, which does all the HTTP."""
