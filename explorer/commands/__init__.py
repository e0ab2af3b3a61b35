"""The one-shot commands: `explorer get` and `explorer logout`."""
