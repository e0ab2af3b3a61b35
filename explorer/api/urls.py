"""Where credentials may go: the base URL's rules (HTTPS, or plain HTTP to loopback only), origins,
and paths as sent. The session and the config both ask here, so the rule is said once."""

from __future__ import annotations

import ipaddress
from urllib.parse import quote

import httpx

from explorer.api.errors import ApiError, ConfigError
from explorer.api.unsafe_characters import UNSAFE, visible

DEFAULT_ROOT = "/api/service/v1.0"


def refuse_plain_http(url: httpx.URL, why: str = "") -> None:
    """Raise ApiError (insecure) for plain http:// to a host that is not this machine."""
    if url.scheme == "http" and not is_loopback(url.host):
        raise ApiError(
            "insecure",
            f"Refusing plain http:// to {url.host}{why}",
            url=str(url),
            hint="Use https://. Plain http:// is allowed only for loopback addresses such as 127.0.0.1.",
        )


def url_fault(text: str, error: Exception) -> str:
    """Why `text` is not a URL, in words that point at the mistake: httpx reads `https://[::1/x`,
    whose `[` is not closed, as a host and a port `:1`, and says "Invalid port: ':1'"."""
    authority = text.partition("://")[2].partition("/")[0].partition("?")[0].partition("#")[0]
    if "[" in authority and "]" not in authority:
        return "the [ of its IPv6 address is not closed (such as https://[::1]:8443/)"
    if "]" in authority and "[" not in authority:
        return "the ] of its IPv6 address has no [ before it (such as https://[::1]:8443/)"
    return str(error)


def check_base_url(text: str) -> httpx.URL:
    """The base URL, if it is safe to send credentials to: HTTPS, or plain HTTP on loopback only."""
    try:
        url = httpx.URL(text.strip())
    except (httpx.InvalidURL, TypeError) as error:
        raise ConfigError(
            f"{text!r} is not a URL: {url_fault(text.strip(), error)}",
            "Give the API root, such as https://host/api/service/v1.0.",
        ) from None
    if url.scheme not in ("https", "http") or not url.host:
        raise ConfigError(
            f"{text!r} is not an https:// URL", "Give the API root, such as https://host/api/service/v1.0."
        )
    if url.port is not None and not 0 < url.port < 65536:
        raise ConfigError(
            f"The base URL {text.strip()!r} is not a valid URL: port {url.port} is not between 1 and 65535",
            "Give the API root with a port from 1 to 65535, such as https://127.0.0.1:8443/api/service/v1.0.",
        )
    if url.userinfo:
        raise ConfigError(
            "The base URL carries a user name or password",
            "Credentials go in the environment or a profile, never in the URL.",
        )
    refuse_plain_http(url, ": credentials and tokens would cross the network unencrypted")
    if url.path in ("", "/"):
        url = url.copy_with(path=DEFAULT_ROOT)
    return url.copy_with(query=None, fragment=None)


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine (localhost, 127.0.0.0/8, ::1): the one place plain http is allowed."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def origin_of(url: httpx.URL) -> tuple[str, str, int | None]:
    """(scheme, host, port) with the scheme's default port filled in: what 'same origin' compares."""
    default = {"https": 443, "http": 80}.get(url.scheme)
    return (url.scheme, url.host, url.port or default)


def origin_text(url: httpx.URL) -> str:
    """`https://127.0.0.1:8443`: an origin as one reads it, its port always said."""
    scheme, host, port = origin_of(url)
    return f"{scheme}://{host}:{port}"


def raw_path(url: httpx.URL) -> str:
    """The path as sent, still percent-encoded: `/accessList/10.20.0.0%2F16` is one segment, which
    `URL.path` (decoded) would make two, matching no path the API description documents."""
    return url.raw_path.decode("ascii").partition("?")[0]


def percent_encoded(text: str) -> str:
    """`/gröups/日本語` as a URL carries it: each character past ASCII as its UTF-8 bytes
    percent-encoded (`/gr%C3%B6ups/%E6%97%A5…`), as browsers and httpx send them; the rest as typed."""
    return "".join(char if char.isascii() else quote(char, safe="") for char in text)


def refuse_unseen(target: str) -> None:
    """ApiError (config) for a target holding a control character, or an invisible one that reorders
    or hides text (U+202E, a zero-width space): nobody sees it there, and a URL cannot carry it as typed.
    Every such character is named, each once: the person mends them all in one go."""
    unseen = list(dict.fromkeys(match.group(0) for match in UNSAFE.finditer(target)))
    if not unseen:
        return
    described = ", and ".join(f"{visible(char)}, {unseen_kind(char)}" for char in unseen)
    encoded = [percent_encoded_char(char) for char in unseen]
    if None in encoded:  # a lone surrogate has no bytes to encode
        hint = "Copy the path again from where it came: this one lost half of a character."
    elif len(unseen) == 1:
        hint = f"If a name on the service really holds it, type it percent-encoded: {encoded[0]}"
    else:
        each = ", ".join(f"{visible(char)} as {code}" for char, code in zip(unseen, encoded, strict=True))
        hint = f"If a name on the service really holds them, type them percent-encoded: {each}"
    raise ApiError("config", f"'{visible(target)}' is not a valid URL: it holds {described}", hint=hint)


def unseen_kind(char: str) -> str:
    """What kind of character that does not show `char` is, in a few words."""
    code = ord(char)
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return "a control character"
    if 0xD800 <= code <= 0xDFFF:
        return "half of a character (a lone surrogate)"
    return "an invisible character that reorders or hides text"


def percent_encoded_char(char: str) -> str | None:
    """`char` as a URL carries it (`%E2%80%8B`); None for a lone surrogate, which has no bytes."""
    try:
        return "".join(f"%{byte:02X}" for byte in char.encode("utf-8"))
    except UnicodeError:
        return None


def resolve(base_url: httpx.URL, target: str) -> httpx.URL:
    """A target as a URL: absolute as given; /api/… from the base URL's origin; anything else under
    the base URL. Letters past ASCII are percent-encoded (percent_encoded). ApiError (config) when
    it is not one, (insecure) when it is plain http to another host."""
    target = target.strip()
    refuse_unseen(target)
    quoted = f"'{target}'"  # shown as typed: it holds nothing unseen (refuse_unseen)
    try:
        if "://" in target:
            url = httpx.URL(target)
        elif target.startswith("/api/") or target == "/api":
            url = base_url.copy_with(raw_path=percent_encoded(target).encode("ascii"))
        else:
            base = base_url.raw_path.decode().split("?")[0].rstrip("/")
            relative = percent_encoded(target.lstrip("/"))
            url = base_url.copy_with(raw_path=(f"{base}/{relative}" if relative else base).encode("ascii"))
    except (httpx.InvalidURL, UnicodeError) as error:
        raise ApiError("config", f"{quoted} is not a valid URL: {url_fault(target, error)}") from None
    if url.port is not None and not 0 < url.port < 65536:
        raise ApiError("config", f"{quoted} is not a valid URL: port {url.port} is not between 1 and 65535")
    if url.scheme not in ("https", "http") or not url.host:
        raise ApiError("config", f"{quoted} is not a path or an http(s) URL")
    refuse_plain_http(url)
    return url
