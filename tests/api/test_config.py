"""Where credentials come from: flags, then the environment, then a profile under the file's rules."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest

from explorer.api.config import Credentials
from explorer.api.config_file import remember, write_config
from explorer.api.errors import ConfigError
from explorer.api.profiles import save_profile
from explorer.api.secret import Secret
from explorer.commands.hint_words import command_line_hint
from explorer.display.saved_profile import saved_words
from explorer.display.variables import VARIABLES
from explorer.sandbox.tls import names_for, server_files
from tests.safety.memory_keyring import PlainFileKeyring, use_memory_keyring

BASE = "https://api.example.com/api/service/v1.0"


def save(path: Path, name: str, credentials: Credentials) -> str:
    """Save a profile as the login form does, and say what was saved as the form says it."""
    return saved_words(save_profile(path, name, credentials, VARIABLES))


def write(path: Path, text: str, mode: int = 0o600) -> Path:
    path.write_text(text)
    os.chmod(path, mode)
    return path


@pytest.fixture
def config(tmp_path) -> Path:
    return write(
        tmp_path / "config.toml",
        f"""
default_profile = "prod"

[profiles.prod]
base_url = "{BASE}"
client_id = "prod-client"
client_secret = "prod-secret"

[profiles.lab]
base_url = "https://lab.example.com/api/service/v1.0"
public_key = "labpub"
private_key = {{ env = "LAB_PRIVATE" }}
rate_limit = 50
""",
    )


def test_the_default_profile_is_used_when_nothing_else_is_given(config):
    found = Credentials.resolve(variables=VARIABLES, environ={}, path=config)
    assert (found.profile, found.base_url, found.client_id) == ("prod", BASE, "prod-client")
    assert found.client_secret.reveal() == "prod-secret"
    assert found.kind == "service account"


def test_the_environment_outranks_the_profile_and_flags_outrank_both(config):
    environ = {"EXPLORER_CLIENT_ID": "env-client", "EXPLORER_CLIENT_SECRET": "env-secret"}
    from_env = Credentials.resolve(variables=VARIABLES, environ=environ, path=config)
    assert from_env.client_id == "env-client" and from_env.client_secret.reveal() == "env-secret"
    from_flag = Credentials.resolve(variables=VARIABLES, client_id="flag-client", environ=environ, path=config)
    assert from_flag.client_id == "flag-client"


def test_a_profile_is_chosen_by_flag_or_environment(config):
    environ = {"LAB_PRIVATE": "lab-private"}
    by_flag = Credentials.resolve(variables=VARIABLES, profile="lab", environ=environ, path=config)
    by_env = Credentials.resolve(variables=VARIABLES, environ={**environ, "EXPLORER_PROFILE": "lab"}, path=config)
    for found in (by_flag, by_env):
        assert found.kind == "API key" and found.private_key.reveal() == "lab-private"
        assert found.rate_limit == 50


def test_an_unknown_profile_names_the_ones_there_are(config):
    with pytest.raises(ConfigError) as caught:
        Credentials.resolve(variables=VARIABLES, profile="staging", environ={}, path=config)
    assert "No profile 'staging'" in caught.value.line()
    assert "lab, prod" in caught.value.hint


def test_a_profile_asked_for_without_a_config_file_says_there_is_none(tmp_path):
    missing = tmp_path / "config.toml"
    with pytest.raises(ConfigError) as caught:
        Credentials.resolve(variables=VARIABLES, profile="prod", environ={}, path=missing)
    assert caught.value.line() == f"No profile 'prod': there is no config file at {missing}"
    assert caught.value.hint.startswith("Add the profile there")


def test_a_plain_secret_in_a_file_others_can_read_is_refused(config):
    os.chmod(config, 0o644)
    with pytest.raises(ConfigError) as caught:
        Credentials.resolve(variables=VARIABLES, environ={}, path=config)
    assert "can be read by others (mode 644)" in caught.value.line()
    assert f"chmod 600 {config}" in caught.value.hint
    assert "prod-secret" not in caught.value.full()


def test_a_secret_by_reference_may_live_in_a_shared_file(tmp_path):
    secret_file = write(tmp_path / "secret", "from-file\n")
    config = write(
        tmp_path / "config.toml",
        f'[profiles.default]\nbase_url = "{BASE}"\nclient_id = "c"\nclient_secret = {{ file = "{secret_file}" }}\n',
        mode=0o644,
    )
    assert Credentials.resolve(variables=VARIABLES, environ={}, path=config).client_secret.reveal() == "from-file"
    os.chmod(secret_file, 0o644)
    with pytest.raises(ConfigError, match="which others can read"):
        Credentials.resolve(variables=VARIABLES, environ={}, path=config)


def test_a_reference_to_a_variable_that_is_not_set(config):
    with pytest.raises(ConfigError, match="LAB_PRIVATE, which is not set"):
        Credentials.resolve(variables=VARIABLES, profile="lab", environ={}, path=config)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[profiles.x\n", "is not valid TOML"),
        ('[profiles.x]\nbase_url = "https://h"\nclient_id = "c"\nclient_secret = 5\n', "must be a string"),
        ('[profiles.x]\nbase_url = "https://h"\nclientid = "c"\n', "unknown field 'clientid'"),
        ('[profiles.x]\nbase_url = "https://h"\nclient_id = "c"\nrate_limit = 0\n', "at least 1"),
    ],
)
def test_a_broken_config_file_gets_a_message_naming_it(tmp_path, text, message):
    config = write(tmp_path / "config.toml", text)
    with pytest.raises(ConfigError) as caught:
        Credentials.resolve(variables=VARIABLES, profile="x", environ={}, path=config)
    assert message in caught.value.line()
    assert str(config) in caught.value.line()


def test_without_anything_the_message_says_what_to_set(tmp_path):
    with pytest.raises(ConfigError) as caught:
        Credentials.resolve(variables=VARIABLES, environ={}, path=tmp_path / "missing.toml")
    assert caught.value.line() == "No base URL: nothing says which service to explore"
    assert caught.value.hint == f"Add a profile to {tmp_path / 'missing.toml'}."
    assert command_line_hint(caught.value) == (
        f"{caught.value.hint} On the command line, --base-url URL (or EXPLORER_BASE_URL) names one; --demo explores "
        "the sandbox."
    )
    with pytest.raises(ConfigError) as caught:
        Credentials.resolve(variables=VARIABLES, environ={"EXPLORER_BASE_URL": BASE}, path=tmp_path / "missing.toml")
    assert caught.value.line() == f"No credentials for {BASE}"
    assert command_line_hint(caught.value) == (
        f"Put them in a profile in {tmp_path / 'missing.toml'}. Or set EXPLORER_CLIENT_ID and EXPLORER_CLIENT_SECRET "
        "(a service account), or EXPLORER_PUBLIC_KEY and EXPLORER_PRIVATE_KEY (an API key)."
    )


def test_a_base_url_without_a_path_means_the_default_api_root(tmp_path):
    found = Credentials.resolve(
        variables=VARIABLES,
        environ={"EXPLORER_BASE_URL": "https://h.example", "EXPLORER_PUBLIC_KEY": "p", "EXPLORER_PRIVATE_KEY": "k"},
        path=tmp_path / "none.toml",
    )
    assert found.base_url == "https://h.example/api/service/v1.0"


def test_a_missing_ca_bundle_is_named(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        Credentials.resolve(
            variables=VARIABLES,
            ca_bundle=str(tmp_path / "nope.pem"),
            environ={"EXPLORER_BASE_URL": BASE, "EXPLORER_PUBLIC_KEY": "p", "EXPLORER_PRIVATE_KEY": "k"},
            path=tmp_path / "none.toml",
        )


def test_credentials_never_print_their_secrets(config):
    found = Credentials.resolve(variables=VARIABLES, environ={}, path=config)
    assert "prod-secret" not in repr(found) and "prod-secret" not in str(found)


def test_with_several_profiles_and_none_chosen_the_message_lists_them_and_how_to_choose(tmp_path):
    config = write(
        tmp_path / "config.toml",
        f'[profiles.lab]\nbase_url = "{BASE}"\n\n[profiles.prod]\nbase_url = "{BASE}"\n',
    )
    with pytest.raises(ConfigError) as caught:
        Credentials.resolve(variables=VARIABLES, environ={}, path=config)
    assert caught.value.line() == f"No profile is chosen in {config}, which has: lab, prod"
    assert caught.value.hint == f'Set default_profile = "NAME" at the top of {config}.'
    assert command_line_hint(caught.value) == (
        f"{caught.value.hint} On the command line, --profile NAME (or EXPLORER_PROFILE) chooses one."
    )


KEPT = (
    ". Its secret is in the system keyring (service 'explorer', entry 'c@https://api.example.com:443'), "
    "not in the file."
)


def test_a_profile_saved_alone_becomes_the_default_and_one_saved_beside_others_does_not(tmp_path):
    use_memory_keyring()
    path = tmp_path / "config.toml"
    credentials = Credentials(BASE, client_id="c", client_secret=Secret("s"))
    assert save(path, "lab", credentials) == (
        f"Saved profile 'lab' to {path}, as the default profile (default_profile){KEPT}"
    )
    assert path.read_text().startswith('default_profile = "lab"\n')
    assert Credentials.resolve(variables=VARIABLES, environ={}, path=path).profile == "lab"
    assert save(path, "prod", credentials) == f"Saved profile 'prod' to {path} (use it with --profile prod){KEPT}"
    assert Credentials.resolve(variables=VARIABLES, environ={}, path=path).profile == "lab"
    assert Credentials.resolve(variables=VARIABLES, profile="prod", environ={}, path=path).profile == "prod"


def test_a_saved_secret_goes_to_the_system_keyring_and_the_file_names_its_entry(tmp_path):
    kept = use_memory_keyring()
    path = tmp_path / "config.toml"
    save(path, "lab", Credentials(BASE, client_id="c", client_secret=Secret("s3cret")))
    assert kept.entries == {("explorer", "c@https://api.example.com:443"): "s3cret"}
    assert "s3cret" not in path.read_text()
    profile = tomllib.loads(path.read_text())["profiles"]["lab"]
    assert profile["client_secret"] == {"keyring": "c@https://api.example.com:443"}
    assert Credentials.resolve(variables=VARIABLES, environ={}, path=path).client_secret.reveal() == "s3cret"


@pytest.mark.parametrize("backend", ["none", "plain file"])
def test_without_a_keyring_to_trust_the_secret_is_stored_nowhere_and_the_message_says_what_to_set(tmp_path, backend):
    """A headless machine (keyring's fail backend, as every test starts) and a keyring that keeps passwords in
    a plain file (priority below 1) alike: the file names the variable, the secret goes nowhere."""
    plain = use_memory_keyring(PlainFileKeyring) if backend == "plain file" else None
    path = tmp_path / "config.toml"
    said = save(path, "lab", Credentials(BASE, client_id="c", client_secret=Secret("s3cret")))
    assert said == (
        f"Saved profile 'lab' to {path}, as the default profile (default_profile), without its secret: there is "
        "no system keyring here to keep it in, and it is never written in the file. Set EXPLORER_CLIENT_SECRET "
        "before the next start (the profile reads it from there), or type it in the form again then."
    )
    assert "s3cret" not in path.read_text()
    assert tomllib.loads(path.read_text())["profiles"]["lab"]["client_secret"] == {"env": "EXPLORER_CLIENT_SECRET"}
    assert plain is None or plain.entries == {}
    found = Credentials.resolve(variables=VARIABLES, environ={"EXPLORER_CLIENT_SECRET": "typed"}, path=path)
    assert (found.profile, found.client_secret.reveal()) == ("lab", "typed")


def test_a_keyring_entry_that_is_missing_or_unreadable_is_said_with_what_to_set(tmp_path):
    config = write(
        tmp_path / "config.toml",
        f'[profiles.lab]\nbase_url = "{BASE}"\nclient_id = "c"\nclient_secret = {{ keyring = "c@lab" }}\n',
    )
    with pytest.raises(ConfigError) as caught:  # no keyring here (the fail backend)
        Credentials.resolve(variables=VARIABLES, profile="lab", environ={}, path=config)
    assert caught.value.line() == (
        f"In {config}, profile 'lab', client_secret names the keyring entry 'c@lab', and no system keyring can be "
        "read here"
    )
    assert command_line_hint(caught.value) == (
        'Name the secret another way in the profile: { env = "VARIABLE" } or { file = "PATH" }. Or set '
        "EXPLORER_CLIENT_SECRET (or EXPLORER_PRIVATE_KEY) for this run: it comes before the profile."
    )
    use_memory_keyring()
    with pytest.raises(ConfigError, match="names the keyring entry 'c@lab', which the system keyring does not hold"):
        Credentials.resolve(variables=VARIABLES, profile="lab", environ={}, path=config)


def test_a_profile_saved_where_another_says_writes_false_is_read_only_too(tmp_path):
    config = write(
        tmp_path / "config.toml",
        '[profiles.prod]\nbase_url = "https://api.example.com/api/atlas/v2"\npublic_key = "p"\nwrites = false\n',
    )
    said = save(config, "mine", Credentials(BASE, client_id="c", client_secret=Secret("s")))
    assert said.endswith(". Read-only (writes = false), as the profile 'prod' says of the same origin.")
    assert tomllib.loads(config.read_text())["profiles"]["mine"]["writes"] is False
    elsewhere = save(config, "lab", Credentials("https://lab.example.com", client_id="c", client_secret=Secret("s")))
    assert "writes" not in tomllib.loads(config.read_text())["profiles"]["lab"] and "Read-only" not in elsewhere


LAB = "https://lab.example.com/api/service/v1.0"
BOUND = f"""
default_profile = "lab"

[profiles.lab]
base_url = "{LAB}"
client_id = "lab-client"
client_secret = "lab-secret"
ca_bundle = "CA_BUNDLE"
rate_limit = 7
writes = true

[profiles.prod]
base_url = "{BASE}"
public_key = "prod-key"
private_key = {{ env = "PROD_PRIVATE" }}
writes = false
"""


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_a_base_url_on_another_origin_detaches_the_profile_and_without_credentials_names_both(tmp_path, how):
    config = write(tmp_path / "config.toml", BOUND)
    other = "https://other.example.net/api/service/v1.0"
    flag, environ = (other, {}) if how == "flag" else (None, {"EXPLORER_BASE_URL": other})
    with pytest.raises(ConfigError) as caught:
        Credentials.resolve(variables=VARIABLES, base_url=flag, environ=environ, path=config)
    assert caught.value.line() == (
        "The profile 'lab' is for https://lab.example.com:443, not https://other.example.net:443: its credentials "
        "go only to https://lab.example.com:443"
    )
    assert caught.value.hint == (
        "Give https://other.example.net:443 its own credentials in the environment or a profile; to use the "
        "profile 'lab', leave the base URL to it."
    )
    assert "lab-secret" not in caught.value.full()
    own = {**environ, "EXPLORER_CLIENT_ID": "env-client", "EXPLORER_CLIENT_SECRET": "env-secret"}
    found = Credentials.resolve(
        variables=VARIABLES, base_url=flag, environ=own, path=config
    )  # the environment's own credentials
    assert (found.base_url, found.client_id, found.client_secret.reveal()) == (other, "env-client", "env-secret")
    assert (found.profile, found.ca_bundle, found.rate_limit, found.writes, found.writes_from) == (
        None, None, 100, None, None,
    )  # fmt: skip
    half = {**environ, "EXPLORER_CLIENT_SECRET": "env"}  # no client ID of lab's to go with it: not even half of lab
    with pytest.raises(ConfigError, match="The profile 'lab' is for https://lab.example.com:443, not"):
        Credentials.resolve(variables=VARIABLES, base_url=flag, environ=half, path=config)


def test_a_base_url_on_the_profile_s_own_origin_keeps_the_profile(tmp_path):
    ca = server_files(tmp_path / "tls", names_for("127.0.0.1")).ca
    config = write(tmp_path / "config.toml", BOUND.replace("CA_BUNDLE", str(ca)))
    found = Credentials.resolve(
        variables=VARIABLES, base_url="https://lab.example.com:443/api/atlas/v2", environ={}, path=config
    )
    assert (found.profile, found.client_id, found.client_secret.reveal(), found.writes) == (
        "lab", "lab-client", "lab-secret", True,
    )  # fmt: skip
    assert (found.ca_bundle, found.rate_limit) == (str(ca), 7)


def test_an_origin_a_profile_says_writes_false_of_stays_read_only_with_the_environment_s_credentials(tmp_path):
    config = write(tmp_path / "config.toml", BOUND)
    environ = {"EXPLORER_BASE_URL": BASE, "EXPLORER_CLIENT_ID": "admin", "EXPLORER_CLIENT_SECRET": "admin-secret"}
    found = Credentials.resolve(variables=VARIABLES, environ=environ, path=config)
    assert (found.profile, found.writes, found.writes_from) == (None, False, "prod")


@pytest.mark.parametrize("mode", [0o644, 0o600, 0o640])
def test_remembering_a_setting_keeps_the_mode_of_the_file(tmp_path, mode):
    path = write(tmp_path / "config.toml", '# mine\n[profiles.lab]\nbase_url = "https://h"\n', mode)
    remember(path, "theme", "projector")
    assert path.read_text() == '# mine\ntheme = "projector"\n\n[profiles.lab]\nbase_url = "https://h"\n'
    assert stat.S_IMODE(path.stat().st_mode) == mode


def test_a_new_file_for_a_remembered_setting_is_private(tmp_path):
    path = tmp_path / "new" / "config.toml"
    remember(path, "theme", "projector")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_folder_given_as_the_ca_bundle_is_named_as_one(tmp_path):
    with pytest.raises(ConfigError, match=f"The CA bundle {tmp_path} is a folder, not a file"):
        Credentials.resolve(
            variables=VARIABLES,
            ca_bundle=str(tmp_path),
            environ={"EXPLORER_BASE_URL": BASE, "EXPLORER_PUBLIC_KEY": "p", "EXPLORER_PRIVATE_KEY": "k"},
            path=tmp_path / "none.toml",
        )


WORDS = "é ß 日本語 😀 𝔘 \u202e"  # accents, another script, astral characters (emoji, math), a bidi override


def test_every_field_of_a_saved_profile_reads_back_whatever_its_characters(tmp_path):
    path = tmp_path / "config.toml"
    account = Credentials(
        f"https://api.example.com/api/{WORDS}",
        client_id=f"id {WORDS}",
        client_secret=Secret(f"secret {WORDS}"),
        ca_bundle=f"/home/😀/{WORDS}/ca.pem",
    )
    key = Credentials(BASE, public_key=f"public {WORDS}", private_key=Secret(f"private {WORDS}"))
    use_memory_keyring()
    save(path, "account", account)
    save(path, "key", key)
    remember(path, "theme", f"theme {WORDS}")
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    assert config == {
        "default_profile": "account",
        "theme": f"theme {WORDS}",
        "profiles": {
            "account": {
                "base_url": f"https://api.example.com/api/{WORDS}",
                "client_id": f"id {WORDS}",
                "client_secret": {"keyring": f"id {WORDS}@https://api.example.com:443"},
                "ca_bundle": f"/home/😀/{WORDS}/ca.pem",
            },
            "key": {
                "base_url": BASE,
                "public_key": f"public {WORDS}",
                "private_key": {"keyring": f"public {WORDS}@https://api.example.com:443"},
            },
        },
    }
    assert (
        Credentials.resolve(variables=VARIABLES, profile="key", environ={}, path=path).private_key.reveal()
        == f"private {WORDS}"
    )


def test_a_profile_name_that_toml_would_have_to_quote_is_refused_and_nothing_written(tmp_path):
    path = write(tmp_path / "config.toml", "# mine\n")
    with pytest.raises(ConfigError) as caught:
        save(path, "prod😀", Credentials(BASE, client_id="c", client_secret=Secret("s")))
    assert caught.value.line() == "'prod😀' cannot name a profile: use letters, digits, - and _"
    assert path.read_text() == "# mine\n"


MINE = """\
# My explorer settings; kept by hand.
theme = "projector"   # for the class

[keys]
"explorer.reload" = "f5"   # as in a browser

# The lab, for trying things.
[profiles.lab]
base_url = "https://lab.example.com/api/service/v1.0"
client_id = "lab"
client_secret = { env = "LAB_SECRET" }   # never in this file
"""


SAVED = '{env = "EXPLORER_CLIENT_SECRET"}'  # no keyring here: the variable to set, never the secret


def test_saving_a_profile_keeps_what_the_user_wrote_as_it_was(tmp_path):
    path = write(tmp_path / "config.toml", MINE)
    save(path, "prod", Credentials(BASE, client_id="c", client_secret=Secret("s")))
    assert (
        path.read_text() == MINE + f'\n[profiles.prod]\nbase_url = "{BASE}"\nclient_id = "c"\nclient_secret = {SAVED}\n'
    )


def test_a_first_profile_becomes_the_default_among_the_top_level_settings(tmp_path):
    mine = MINE[: MINE.index("# The lab")]
    path = write(tmp_path / "config.toml", mine)
    save(path, "prod", Credentials(BASE, client_id="c", client_secret=Secret("s")))
    assert path.read_text() == (
        '# My explorer settings; kept by hand.\ntheme = "projector"   # for the class\ndefault_profile = "prod"\n\n'
        '[keys]\n"explorer.reload" = "f5"   # as in a browser\n\n'
        f'[profiles.prod]\nbase_url = "{BASE}"\nclient_id = "c"\nclient_secret = {SAVED}\n'
    )


def test_a_saved_file_is_written_whole_keeping_its_mode_and_its_link(tmp_path):
    (tmp_path / "dotfiles").mkdir()
    dotfiles = write(tmp_path / "dotfiles" / "explorer.toml", "# mine\n", 0o640)
    path = tmp_path / "config.toml"
    path.symlink_to(dotfiles)
    save(path, "lab", Credentials(BASE, client_id="c", client_secret=Secret("s")))
    assert path.is_symlink() and "[profiles.lab]" in dotfiles.read_text()
    assert stat.S_IMODE(dotfiles.stat().st_mode) == 0o640
    assert sorted(p.name for p in dotfiles.parent.iterdir()) == ["explorer.toml"]  # no temporary file left


def test_a_config_file_that_is_not_utf8_is_said_plainly(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b'theme = "caf\xe9"\n')  # Latin-1
    with pytest.raises(ConfigError) as caught:
        Credentials.resolve(variables=VARIABLES, environ={}, path=path)
    assert caught.value.line() == f"The config file {path} is not UTF-8 text (byte 13)"
    assert caught.value.hint.startswith("TOML files are UTF-8")


def test_a_value_that_is_not_text_is_not_saved_and_the_file_is_left_alone(tmp_path):
    path = write(tmp_path / "config.toml", "# mine\n")
    not_utf8 = os.fsdecode(b"/tmp/\xff.pem")  # a file name in bytes that are not UTF-8, as the system gives it
    with pytest.raises(ConfigError) as caught:
        save(path, "lab", Credentials(BASE, client_id="c", client_secret=Secret("s"), ca_bundle=not_utf8))
    assert caught.value.line().startswith(f"Not saved to {path}: a value holds characters that are not text")
    assert path.read_text() == "# mine\n"


def test_a_secret_file_that_is_not_text_is_said_plainly(tmp_path):
    secret = tmp_path / "secret"
    secret.write_bytes(b"\xff\xfe\x00s")
    secret.chmod(0o600)
    config = write(
        tmp_path / "config.toml",
        f'[profiles.x]\nbase_url = "{BASE}"\nclient_id = "c"\nclient_secret = {{ file = "{secret}" }}\n',
    )
    with pytest.raises(ConfigError) as caught:
        Credentials.resolve(variables=VARIABLES, profile="x", environ={}, path=config)
    assert caught.value.line() == f"In {config}, profile 'x', client_secret names {secret}, which is not UTF-8 text"
    assert caught.value.hint == "Put the secret in it as a line of text, nothing else."


def test_what_would_not_read_back_as_toml_is_never_written(tmp_path):
    path = write(tmp_path / "config.toml", "# mine\n")

    class Miswritten:  # what json.dumps wrote for a 😀: a surrogate pair, which TOML refuses
        def as_string(self) -> str:
            return '# mine\nca_bundle = "\\ud83d\\ude00"\n'

    with pytest.raises(ConfigError) as caught:
        write_config(path, Miswritten())
    assert caught.value.line().startswith(f"Not saved: {path} would not read back as TOML (")
    assert path.read_text() == "# mine\n"
