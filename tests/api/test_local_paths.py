"""Why a file could not be written, in words about the path a person typed."""

from __future__ import annotations

from pathlib import Path

from explorer.api.local_paths import cannot_write


def written(target: Path) -> str:
    """What a save to `target` says when it fails, the way the explorer's saves try it."""
    try:
        with target.open("xb") as file:
            file.write(b"{}")
    except OSError as error:
        return cannot_write(target, error)
    return "written"


def test_each_way_a_save_fails_is_said_about_the_path(tmp_path: Path):
    (tmp_path / "there.json").write_bytes(b"{}")
    (tmp_path / "a-file").write_bytes(b"")
    assert written(tmp_path / "there.json") == f"{tmp_path / 'there.json'} exists already: save under another name"
    assert written(tmp_path) == f"{tmp_path} is a folder: add a file name to it"
    assert written(tmp_path / "nope" / "x.json") == (
        f"There is no folder {tmp_path / 'nope'}: make it first, or save somewhere else"
    )
    assert written(tmp_path / "a-file" / "x.json") == (
        f"Part of {tmp_path / 'a-file'} is a file, not a folder: save somewhere else"
    )
    long = written(tmp_path / ("a" * 300))
    assert long.startswith(f"Cannot save to {tmp_path / ('a' * 300)}: ") and "Errno" not in long


def test_a_folder_not_ours_to_write_in_is_said(tmp_path: Path):
    refused = PermissionError(13, "Permission denied")  # as a folder not ours refuses (root may write anywhere)
    assert cannot_write(tmp_path / "x.json", refused) == f"You may not write in {tmp_path}: save somewhere else"
