"""The explorer screen's widgets, one a module with its CSS beside it: the tree, the panes, the fields, the bars."""
