"""MkDocs hook: the screenshots live in screenshots/ at the top of the repository, where the
README shows them; this adds them to the site as screenshots/<name>, so a page links them as it
links any file of docs/ (`screenshots/root.svg`, or `../screenshots/root.svg` one folder down)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def on_files(files: Files, config: Any) -> Files:
    for picture in sorted(SCREENSHOTS.iterdir()):
        if picture.is_file():
            files.append(
                File(
                    f"screenshots/{picture.name}",
                    src_dir=str(SCREENSHOTS.parent),
                    dest_dir=config["site_dir"],
                    use_directory_urls=config["use_directory_urls"],
                )
            )
    return files
