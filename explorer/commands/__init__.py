"""The one-shot commands: `explorer get`, the writes (`post`, `put`, `patch`, `delete`) and `explorer logout`."""
