"""Where credentials come from: what the caller gives, then the environment, then a profile in the config file.

The environment is read only through the variables the caller names (`variables`: the explorer's
command line names its own); a script that names none reads the arguments and the profile.

    # ~/.config/explorer/config.toml (platformdirs' user config directory)
    default_profile = "sandbox"

    [profiles.sandbox]
    base_url = "https://127.0.0.1:8443/api/service/v1.0"
    client_id = "mdb_sa_id_sandbox"
    client_secret = { env = "SANDBOX_SECRET" }        # or { file = "~/.secrets/sandbox" }
    ca_bundle = "~/.local/share/explorer/sandbox-ca.pem"

A secret may sit in the file as plain text only when the file is private (mode 0600); otherwise it
is named by reference: to an environment variable, to a private file, or to an entry of the system
keyring (`{ keyring = "ENTRY" }`, where profiles.save_profile saves one). Secrets are never
arguments, which a command line would show to other users of the machine.

A profile is bound to the origin its base_url names: a base URL given, or from the environment, on
another origin detaches it: its secret, client ID, writes, CA bundle and limits are not used there
(only its api_version and openapi, which say what the API is). A profile with no base_url is bound to
no origin: its credentials go nowhere. An origin that a profile names with `writes = false` is
read-only for every session on it but one through a profile for it that says `writes = true`.
"""

from __future__ import annotations

import functools
import os
import ssl
import stat
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx

from explorer.api.config_file import config_path, is_private, load_config
from explorer.api.errors import ConfigError
from explorer.api.local_paths import exists, is_dir, is_file
from explorer.api.profile_origins import detached_profile, names_origin, origin_writes
from explorer.api.secret import Secret
from explorer.api.system_keyring import fetch
from explorer.api.urls import check_base_url
from explorer.api.versions import check_version

PROFILE_FIELDS = {
    "base_url", "client_id", "client_secret", "public_key", "private_key", "ca_bundle", "rate_limit",
    "token_rate_limit", "api_version", "openapi", "writes",
}  # fmt: skip


# The credentials' own fields: given, or in the environment, any of them means a profile's writes = true
# does not apply (they are not the profile's).
CREDENTIAL_FIELDS = ("client_id", "client_secret", "public_key", "private_key")
# The fields a caller may name an environment variable for (`variables`), each read only if it does.
VARIABLE_FIELDS = ("base_url", *CREDENTIAL_FIELDS, "ca_bundle", "profile", "api_version", "openapi")


@dataclass(frozen=True)
class Credentials:
    """Everything needed to open a session: where the API is, and who to be there.

    The secrets are Secret, so they never print.

    Args:
        base_url: The API root (`https://127.0.0.1:8443/api/service/v1.0`): the only origin the credentials go to.
        client_id: A service account's client ID.
        client_secret: A service account's client secret.
        public_key: An API key's public key.
        private_key: An API key's private key.
        ca_bundle: A PEM file of the authorities to trust for the service (the sandbox's `sandbox-ca.pem`).
        profile: The config file's profile they came from, if any.
        rate_limit: Requests a minute per project the client counts to, where the service states no limit.
        token_rate_limit: Requests a minute to the token endpoints the client counts to, where the service states none.
        api_version: The version a versioned API (`/api/<vendor>/v2`) is asked for: a date such as 2024-08-05.
        openapi: The API description: a file or an http(s) URL.
        writes: The profile's `writes`: True allows writes, False forbids them even when asked for, None leaves
            it to the caller.
        writes_from: The profile that `writes` comes from: `profile`, or another that names the same origin with
            `writes = false` (an origin it names read-only stays so, whatever the credentials).
    """

    base_url: str
    client_id: str | None = None
    client_secret: Secret | None = None
    public_key: str | None = None
    private_key: Secret | None = None
    ca_bundle: str | None = None
    profile: str | None = None
    rate_limit: int = 100
    token_rate_limit: int = 10
    api_version: str | None = None  # the version a versioned API (/api/<vendor>/v2) is asked for
    openapi: str | None = None  # the API description: a file or an http(s) URL
    writes: bool | None = None  # the profile's `writes`: True allows writes, False forbids even when asked for
    writes_from: str | None = None  # the profile whose `writes` that is (`profile`, or one naming this origin)

    @property
    def host_and_port(self) -> str:
        """The base URL's host and port (`127.0.0.1:8443`, `[::1]:443`): where the session connects.

        The port always (else the scheme's: 443, or 80 for http), since a sandbox's is what sets it apart.
        """
        url = httpx.URL(self.base_url)
        host = f"[{url.host}]" if ":" in url.host else url.host
        return f"{host}:{url.port or (80 if url.scheme == 'http' else 443)}"

    @property
    def kind(self) -> str:
        """'service account' or 'API key': what the credentials are, as the screen and the log say it; else "none"."""
        if self.client_id and self.client_secret:
            return "service account"
        if self.public_key and self.private_key:
            return "API key"
        return "none"

    @property
    def who(self) -> str:
        """Who these credentials are, fit to show: a client ID or a public key (else "nobody"), never a secret."""
        return self.client_id or self.public_key or "nobody"

    @classmethod
    def resolve(
        cls,
        *,
        base_url: str | None = None,
        client_id: str | None = None,
        public_key: str | None = None,
        ca_bundle: str | None = None,
        profile: str | None = None,
        api_version: str | None = None,
        openapi: str | None = None,
        environ: Mapping[str, str] = os.environ,
        variables: Mapping[str, str] | None = None,
        path: Path | None = None,
    ) -> Credentials:
        """Return the credentials: the arguments first, then the environment, then the profile; checked.

        Secrets are never arguments, which a command line would show to other users of the machine: they come from
        the environment (the variables named for `client_secret` and `private_key`), else the profile, as plain text
        only in a private file (0600), else named by reference.

        The profile applies only to the origin its base_url names. A base URL given or from the environment on
        another origin detaches it: its secret, client ID, writes, CA bundle and limits are not used (its api_version
        and openapi, which say what the API is, are), and without credentials of the environment's own for that
        origin, the ConfigError names both origins.

        Args:
            base_url: The API root, before the environment's; one with no path gets /api/service/v1.0.
            client_id: A service account's client ID, before the environment's.
            public_key: An API key's public key, before the environment's.
            ca_bundle: A PEM file of authorities to trust, before the environment's; `~` expanded.
            profile: The profile, before the environment's, the file's `default_profile`, then "default".
            api_version: The version to ask for, a date (2024-08-05), before the environment's.
            openapi: The API description, a file or an http(s) URL, before the environment's.
            environ: The environment: the process's, unless one is passed. Read for the variables `variables`
                names, and for those a profile names (`{ env = "NAME" }`).
            variables: The environment variable to read for each field of VARIABLE_FIELDS that has one
                (`{"base_url": "MY_BASE_URL"}`); None reads none. Errors name them.
            path: The config file; None for config.toml in the user's config folder. No file means no profiles.

        Returns:
            The credentials, checked: the base URL safe to send them to, the CA bundle loadable, the version a date.

        Raises:
            ConfigError: When what was found cannot be used, saying why: the config file; a profile (unknown, or a field
                of it unknown or of the wrong type); the base URL, a secret, the CA bundle, the version; no credentials.
            ApiError: When the base URL is plain http:// to a host that is not this machine (kind "insecure").
        """
        path = path or config_path()
        config = load_config(path)
        profiles = config.get("profiles", {})
        if not isinstance(profiles, dict):
            raise ConfigError(f"In {path}, [profiles] must be a table of profiles")
        names = variables or {}
        env = functools.partial(from_environment, environ=environ, variables=names)
        name = chosen_profile(config, profile or env("profile"))
        if name and name not in profiles:
            if not exists(path):
                there = f"No profile {name!r}: there is no config file at {path}"
                raise ConfigError(there, "Add the profile there.", setting="profiles")
            known = ", ".join(sorted(profiles)) or "none"
            raise ConfigError(f"No profile {name!r} in {path}", f"Profiles there: {known}.")
        settings = profiles.get(name, {}) if name else {}
        if not isinstance(settings, dict):
            raise ConfigError(f"In {path}, profile {name!r} must be a table")
        unknown = set(settings) - PROFILE_FIELDS
        if unknown:
            raise ConfigError(
                f"In {path}, profile {name!r} has unknown field {sorted(unknown)[0]!r}",
                f"Fields a profile takes: {', '.join(sorted(PROFILE_FIELDS))}.",
            )
        asked = base_url or env("base_url") or None
        detached = name if name and asked and not names_origin(settings, asked) else None
        applied = {} if detached else settings  # who, and what they may do: nothing of the profile, off its origin
        secrets = Secrets(path, name or "", environ, names)

        def pick(given: str | None, field: str, profile: Mapping[str, Any] = applied) -> str | None:
            value = given or env(field) or profile.get(field)
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"In {path}, profile {name!r}: {field} must be a string")
            check_utf8(value, names.get(field, field))
            return value

        url = pick(base_url, "base_url")
        if not url and not name and profiles:
            raise ConfigError(
                f"No profile is chosen in {path}, which has: {', '.join(sorted(profiles))}",
                f'Set default_profile = "NAME" at the top of {path}.',
                setting="profile",
            )
        if not url:
            raise ConfigError(
                "No base URL: nothing says which service to explore", f"Add a profile to {path}.", setting="service"
            )
        bundle = pick(ca_bundle, "ca_bundle")
        checked = str(check_base_url(url))
        attached = None if detached else name
        writes_setting(applied.get("writes"), name, path)
        # A profile's writes = true is for its own credentials: not for a client ID or key given or from the
        # environment, nor a secret from the environment (another account, perhaps prod's, on the same origin).
        borrowed = any((client_id, public_key, *(env(field) for field in CREDENTIAL_FIELDS)))
        writes, writes_from = origin_writes(profiles, None if borrowed else attached, checked)
        credentials = cls(
            base_url=checked,
            client_id=pick(client_id, "client_id"),
            client_secret=secrets.read(env("client_secret"), applied.get("client_secret"), "client_secret"),
            public_key=pick(public_key, "public_key"),
            private_key=secrets.read(env("private_key"), applied.get("private_key"), "private_key"),
            ca_bundle=str(Path(bundle).expanduser()) if bundle else None,
            profile=attached,
            rate_limit=limit(applied.get("rate_limit", 100), "rate_limit", path),
            token_rate_limit=limit(applied.get("token_rate_limit", 10), "token_rate_limit", path),
            # what the API is, not who may reach it: the profile's, detached or not
            api_version=version(pick(api_version, "api_version", settings)),
            openapi=description_source(pick(openapi, "openapi", settings)),
            writes=writes,
            writes_from=writes_from,
        )
        if credentials.kind == "none" and detached:
            raise detached_profile(detached, settings, checked)
        if credentials.kind == "none":
            raise ConfigError(
                f"No credentials for {credentials.base_url}", f"Put them in a profile in {path}.", setting="account"
            )
        if credentials.ca_bundle:
            check_ca_bundle(credentials.ca_bundle)
        return credentials


def form_origin(
    credentials: Credentials,
    *,
    profile: str | None = None,
    environ: Mapping[str, str] = os.environ,
    variables: Mapping[str, str] | None = None,
    path: Path | None = None,
) -> Credentials:
    """Return credentials typed in (no profile's) with what the config file says of writes at their origin.

    A `writes = false` holds: the chosen profile's when it names the form's origin, else any profile's that names
    it. A `writes = true` does not carry over: it is for the profile's own credentials, not those typed.

    Args:
        credentials: What the form was given.
        profile: The profile asked for, before the environment's and the file's `default_profile`.
        environ: The environment, where the variable `variables` names for "profile" is read.
        variables: The environment variable of each field, as `Credentials.resolve` takes them; None reads none.
        path: The config file; None for config.toml in the user's config folder.

    Returns:
        The credentials: `profile` the chosen one when it names their origin (else None); `writes` False and
        `writes_from` naming the profile that says so, or `writes` None.
    """
    config = load_config(path or config_path())
    profiles = config.get("profiles")
    profiles = profiles if isinstance(profiles, dict) else {}
    name = chosen_profile(config, profile or from_environment("profile", environ, variables or {}))
    settings = profiles.get(name) if name else None
    attached = name if isinstance(settings, dict) and names_origin(settings, credentials.base_url) else None
    writes, writes_from = origin_writes(profiles, None, credentials.base_url)  # typed: no profile's writes = true
    if writes is False:
        return replace(credentials, profile=attached, writes=False, writes_from=writes_from)
    return replace(credentials, profile=attached, writes=None, writes_from=None)


def from_environment(field: str, environ: Mapping[str, str], variables: Mapping[str, str]) -> str | None:
    """Return what the environment holds for a field, read from the variable the caller names for it.

    Args:
        field: One of VARIABLE_FIELDS (`base_url`, `client_secret`, …).
        environ: The environment.
        variables: The variable of each field the caller reads from the environment.

    Returns:
        The variable's value; None when it is not set, or the caller names no variable for the field.
    """
    name = variables.get(field)
    return environ.get(name) if name else None


def check_utf8(value: str | None, variable: str) -> None:
    """Raise a ConfigError naming where a setting came from when it holds bytes that are not UTF-8.

    Such as an environment's, or a command line's, read with surrogateescape; never the value: it
    may be a secret.
    """
    if value is not None and any("\ud800" <= character <= "\udfff" for character in value):
        raise ConfigError(
            f"{variable} (or the flag or profile field that gives it) is not UTF-8 text",
            "Set it again as UTF-8 text: what it holds is sent as such.",
        )


def writes_setting(value: Any, profile: str | None, path: Path) -> bool | None:
    """Return a profile's `writes`: true, false (a production profile: not even when asked for), or unset."""
    if value is None or isinstance(value, bool):
        return value
    raise ConfigError(f"In {path}, profile {profile!r}: writes must be true or false")


def chosen_profile(config: Mapping[str, Any], profile: str | None) -> str | None:
    """Return the profile asked for (given, or the environment's), then default_profile, then "default"."""
    name = profile or config.get("default_profile")
    profiles = config.get("profiles")
    if not name and isinstance(profiles, dict) and "default" in profiles:
        return "default"
    return str(name) if name else None


def check_ca_bundle(text: str) -> str:
    """Return the CA bundle's path, `~` expanded, if it is a file of PEM certificates TLS can load."""
    path = Path(text.strip()).expanduser()
    if is_dir(path):
        raise ConfigError(f"The CA bundle {path} is a folder, not a file")
    if not is_file(path):
        raise ConfigError(f"The CA bundle {path} does not exist")
    trusting(str(path))
    return str(path)


@functools.cache
def default_trust() -> ssl.SSLContext:
    """Return the authorities httpx trusts by default (certifi's, or those SSL_CERT_FILE names), for every session.

    Loading them takes about 25 ms, so they are loaded once a process, when the first session needs them.

    Returns:
        A TLS context that verifies certificates and host names against those authorities.
    """
    return httpx.create_ssl_context()


def trusting(ca_bundle: str) -> ssl.SSLContext:
    """Return a TLS context that trusts the authorities in this PEM file, or the ConfigError that says why not."""
    path = Path(ca_bundle).expanduser()
    try:
        return ssl.create_default_context(cafile=str(path))
    except (ssl.SSLError, ValueError):
        raise ConfigError(
            f"The CA bundle {path} holds no certificate TLS can use",
            "Name a PEM file of certificates (-----BEGIN CERTIFICATE-----), such as the sandbox's sandbox-ca.pem.",
        ) from None
    except OSError as error:
        raise ConfigError(f"The CA bundle {path} cannot be read: {error.strerror}") from None


def form_defaults(
    *,
    base_url: str | None = None,
    client_id: str | None = None,
    ca_bundle: str | None = None,
    profile: str | None = None,
    environ: Mapping[str, str] = os.environ,
    variables: Mapping[str, str] | None = None,
    path: Path | None = None,
) -> dict[str, str]:
    """Return what the settings say of the base URL, client ID and CA bundle, for a form to start from.

    The flags, the environment and the chosen profile, for a form to start from when `resolve` found
    too little. Never a secret; never an error either (the form checks what it is given). The
    profile's only where it names the same origin as the base URL asked for, if one is. The
    environment is read as `Credentials.resolve` reads it, through the variables `variables` names.
    """
    names = variables or {}
    try:
        config = load_config(path or config_path())
    except ConfigError:
        config = {}
    profiles = config.get("profiles")
    chosen = chosen_profile(config, profile or from_environment("profile", environ, names))
    settings = profiles.get(chosen) if isinstance(profiles, dict) and chosen else None
    settings = settings if isinstance(settings, dict) else {}
    asked = base_url or from_environment("base_url", environ, names)
    if asked and not names_origin(settings, asked):
        settings = {}  # a profile for another origin: nothing of it goes with the form (its client ID, its CA)
    found = {}
    for field, given in (("base_url", base_url), ("client_id", client_id), ("ca_bundle", ca_bundle)):
        value = given or from_environment(field, environ, names) or settings.get(field)
        if value and isinstance(value, str):
            found[field] = value
    return found


def version(text: str | None) -> str | None:
    """Return an API version from a flag, the environment or a profile, checked: a date such as 2024-08-05."""
    if text is None:
        return None
    try:
        return check_version(text)
    except ValueError:
        raise ConfigError(
            f"{text!r} is not an API version: versions are dates, such as 2024-08-05",
            "Name one as a date.",
            setting="api_version",
        ) from None


def description_source(text: str | None) -> str | None:
    """Return an API description's place: an http(s) URL as given, a file with `~` expanded."""
    if text is None or not text.strip():
        return None
    text = text.strip()
    return text if text.startswith(("https://", "http://")) else str(Path(text).expanduser())


def limit(value: Any, field: str, path: Path) -> int:
    """Return a rate limit from the config file: a whole number of at least 1, else raise a ConfigError."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"In {path}, {field} must be a whole number of at least 1")
    return value


class Secrets:
    """Reads a secret from the environment, or from the config file under its rules."""

    def __init__(self, path: Path, profile: str, environ: Mapping[str, str], variables: Mapping[str, str]) -> None:
        self.path = path
        self.profile = profile
        self.environ = environ
        self.variables = variables  # the environment variable of each field, to name in an error

    def read(self, from_environment: str | None, configured: Any, field: str) -> Secret | None:
        """Return a secret from the environment first, else from the profile.

        From the profile: a string, in a file only its owner can read; or by reference, to an
        environment variable, a private file, or an entry of the system keyring.
        """
        if from_environment:
            check_utf8(from_environment, self.variables.get(field, field))
            return Secret(from_environment)
        if configured is None:
            return None
        where = f"In {self.path}, profile {self.profile!r}, {field}"
        if isinstance(configured, str):
            if not is_private(self.path):
                mode = oct(stat.S_IMODE(self.path.stat().st_mode))[2:]
                raise ConfigError(
                    f"{where} is a secret in plain text, and the file can be read by others (mode {mode})",
                    f'Run chmod 600 {self.path}, or name the secret instead: {field} = {{ env = "VARIABLE" }} '
                    f'or {{ file = "PATH" }}.',
                )
            return Secret(configured)
        if isinstance(configured, dict) and set(configured) == {"env"}:
            value = self.environ.get(str(configured["env"]))
            if not value:
                raise ConfigError(f"{where} names the environment variable {configured['env']}, which is not set")
            return Secret(value)
        if isinstance(configured, dict) and set(configured) == {"keyring"}:
            return fetch(str(configured["keyring"]), where)
        if isinstance(configured, dict) and set(configured) == {"file"}:
            secret_file = Path(str(configured["file"])).expanduser()
            try:
                if not is_private(secret_file):
                    raise ConfigError(
                        f"{where} names {secret_file}, which others can read",
                        f"Run chmod 600 {secret_file}.",
                    )
                return Secret(secret_file.read_text(encoding="utf-8").strip())
            except OSError as error:
                raise ConfigError(f"{where} names {secret_file}, which cannot be read: {error.strerror}") from None
            except UnicodeDecodeError:
                raise ConfigError(
                    f"{where} names {secret_file}, which is not UTF-8 text",
                    "Put the secret in it as a line of text, nothing else.",
                ) from None
        raise ConfigError(
            f'{where} must be a string, {{ env = "NAME" }}, {{ file = "PATH" }} or {{ keyring = "ENTRY" }}'
        )
