"""The navigation model alone, without a screen: nodes by URL, fetches, pages, switches, go-to, history."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest

from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.tui.navigation import Navigation
from explorer.tui.nodes import Node, Step, page_key, with_query

ROOT = "https://api.example/api/service/v1.0"
REL = "https://api.example/"


def answer(url: str, document: Any, status: int = 200) -> Resource:
    """What the session gives for a JSON answer at `url`."""
    return Resource(
        method="GET", url=url, status=status, headers=httpx.Headers({"content-type": "application/json"}),
        request_headers=[], body=json.dumps(document).encode(), elapsed=0.001, received_at=0,
    )  # fmt: skip


def entity(url: str, **relations: str) -> Resource:
    links = [{"rel": "self", "href": url}] + [{"rel": REL + name, "href": href} for name, href in relations.items()]
    return answer(url, {"links": links, "id": url.rsplit("/", 1)[-1]})


def page(url: str, number: int, total: int = 5) -> Resource:
    """Page `number` of a list of `total` items named item0, item1, … at `url` (its itemsPerPage, or 2)."""
    base = url.split("?")[0]
    size = int(dict(parse_qsl(urlsplit(url).query)).get("itemsPerPage", 2))
    first = (number - 1) * size
    items = [
        {"id": f"item{i}", "name": f"item{i}", "links": [{"rel": "self", "href": f"{base}/item{i}"}]}
        for i in range(first, min(total, first + size))
    ]
    links = [{"rel": "self", "href": url}]
    if first + size < total:
        links.append({"rel": "next", "href": f"{base}?pageNum={number + 1}&itemsPerPage={size}"})
    if number > 1:
        links.append({"rel": "previous", "href": f"{base}?pageNum={number - 1}&itemsPerPage={size}"})
    return answer(url, {"links": links, "results": items, "totalCount": total})


def fetched(nav: Navigation, step: Step, resource: Resource) -> Step:
    """The fetch `step` asked for answers `resource`."""
    assert step.fetch is not None, step
    return nav.arrived(step.fetch, resource)


def child(node: Node, title: str) -> Node:
    return next(each for each in node.children if each.title == title)


@pytest.fixture
def nav() -> Navigation:
    """A model whose root links orgs and groups, fetched."""
    model = Navigation(ROOT)
    fetched(model, model.open(model.root), entity(ROOT, orgs=f"{ROOT}/orgs", groups=f"{ROOT}/groups"))
    model.changes()
    return model


def test_opening_a_node_fetches_it_once_and_shows_it(nav):
    groups = child(nav.root, "groups")
    step = nav.open(groups)
    assert step.fetch is not None and step.fetch.url == f"{ROOT}/groups" and nav.is_fetching(groups)
    assert nav.open(groups).fetch is None  # asked again while on its way: still one fetch
    shown = fetched(nav, step, page(f"{ROOT}/groups?itemsPerPage=2", 1))
    assert shown.show is groups and nav.current is groups and not nav.is_fetching(groups)
    assert [c.title for c in groups.children] == ["item0", "item1", "next page › (page 2 of 3)"]
    assert nav.open(groups).fetch is None and nav.open(groups).show is groups  # shown from what was fetched


def test_an_answer_that_is_no_longer_wanted_is_kept_but_not_shown(nav):
    orgs, groups = child(nav.root, "orgs"), child(nav.root, "groups")
    first = nav.open(orgs)
    second = nav.open(groups)  # the fetch of orgs is given up for this one
    assert nav.fetching is second.fetch
    assert fetched(nav, first, page(f"{ROOT}/orgs", 1)).show is None
    assert orgs.resource is not None and nav.fetching is second.fetch


def test_a_url_open_elsewhere_marks_every_other_node_even_one_made_before(nav):
    groups = child(nav.root, "groups")
    fetched(nav, nav.open(groups), page(f"{ROOT}/groups?itemsPerPage=2", 1))
    item = child(groups, "item0")
    fetched(nav, nav.open(item), entity(f"{ROOT}/groups/item0", org=f"{ROOT}/orgs/acme"))
    made_before = child(item, "org")  # the relation exists before the org is opened anywhere
    assert nav.elsewhere(made_before) is None and nav.expandable(made_before)
    orgs = child(nav.root, "orgs")
    fetched(nav, nav.open(orgs), answer(f"{ROOT}/orgs", {"links": [], "results": [
        {"name": "acme", "links": [{"rel": "self", "href": f"{ROOT}/orgs/acme"}]}], "totalCount": 1}))  # fmt: skip
    nav.changes()
    acme = child(orgs, "acme")
    fetched(nav, nav.open(acme), entity(f"{ROOT}/orgs/acme"))
    _, relabel = nav.changes()
    assert made_before in relabel  # its label must change now
    assert nav.elsewhere(made_before) is acme and not nav.expandable(made_before)
    assert nav.open(made_before).select is acme  # opening it goes where it is open


def test_turning_pages_and_going_back_puts_the_page_back_without_a_request(nav):
    groups = child(nav.root, "groups")
    fetched(nav, nav.open(groups), page(f"{ROOT}/groups?itemsPerPage=2", 1))
    item0 = child(groups, "item0")
    fetched(nav, nav.open(item0), entity(f"{ROOT}/groups/item0", clusters=f"{ROOT}/groups/item0/clusters"))
    step = nav.turn_page(1)
    assert step.fetch is not None and step.fetch.url == f"{ROOT}/groups?pageNum=2&itemsPerPage=2"
    fetched(nav, step, page(step.fetch.url, 2))
    assert [c.title for c in groups.children] == ["‹ previous page", "item2", "item3", "next page › (page 3 of 3)"]
    back = nav.back()  # to item0? no: to page 2's list was the last; item0 was before it
    assert back.fetch is None and back.show is item0 and item0 in groups.children  # page 1 is back
    assert [c.title for c in groups.children][:2] == ["item0", "item1"]
    assert child(item0, "clusters") is item0.children[0]  # what was open below it is still there
    forward = nav.forward()
    assert forward.fetch is None and forward.show is groups and groups.resource.page.number == 2
    assert [c.kind for c in nav.root.children] == ["relation", "relation"]  # no `go to` node appeared


def test_reload_and_switches_keep_the_page(nav):
    groups = child(nav.root, "groups")
    fetched(nav, nav.open(groups), page(f"{ROOT}/groups?itemsPerPage=2", 1))
    step = nav.turn_page(1)
    fetched(nav, step, page(step.fetch.url, 2))
    reload = nav.reload(cursor_on=f"{ROOT}/groups/item3")
    assert reload.fetch.url == f"{ROOT}/groups?pageNum=2&itemsPerPage=2"
    assert fetched(nav, reload, page(reload.fetch.url, 2)).cursor_on == f"{ROOT}/groups/item3"
    pretty = nav.switch("pretty")
    assert pretty.note == "pretty=true" and pretty.fetch.url == f"{ROOT}/groups?pageNum=2&itemsPerPage=2&pretty=true"
    fetched(nav, pretty, page(pretty.fetch.url, 2))
    assert nav.title() == f"{ROOT}/groups?pageNum=2&itemsPerPage=2&pretty=true"  # as sent: a URL to copy
    plain = nav.switch("pretty")
    assert plain.fetch.url == f"{ROOT}/groups?pageNum=2&itemsPerPage=2"


def test_a_new_page_size_keeps_the_item_under_the_cursor_in_view(nav):
    groups = child(nav.root, "groups")
    fetched(nav, nav.open(groups), page(f"{ROOT}/groups?pageNum=3&itemsPerPage=100", 3, total=1234))
    step = nav.resize_page(1, cursor_on=f"{ROOT}/groups/item250")  # the 51st of page 3: item 251 of the list
    assert step.fetch.url == f"{ROOT}/groups?pageNum=2&itemsPerPage=200"  # items 201-400
    fetched(nav, step, page(step.fetch.url, 2, total=1234))
    assert nav.title() == f"{ROOT}/groups?pageNum=2&itemsPerPage=200"
    assert nav.resize_page(-1).fetch.url == f"{ROOT}/groups?pageNum=3&itemsPerPage=100"  # no cursor: the page's first
    smallest = Navigation(ROOT)
    smallest.current = node = Node("relation", f"{ROOT}/x", "x")
    node.resource, node.page_size = page(f"{ROOT}/x?itemsPerPage=10", 1), 10
    assert smallest.resize_page(-1).note == "10 per page is the fewest there can be."


def test_a_new_page_size_is_the_next_listed_one_from_any_size():
    """`+` from 2 per page is 10 (the docs' first size), not 25; `-` from 30 is 25, `+` from 30 is 50."""
    for size, step, asked in ((2, 1, 10), (30, -1, 25), (30, 1, 50), (999, -1, 500)):
        model = Navigation(ROOT)
        model.current = node = Node("relation", f"{ROOT}/x", "x")
        node.resource = page(f"{ROOT}/x?itemsPerPage={size}", 1)
        assert model.resize_page(step).fetch.url == f"{ROOT}/x?pageNum=1&itemsPerPage={asked}", (size, step)
    beyond = Navigation(ROOT)
    beyond.current = node = Node("relation", f"{ROOT}/x", "x")
    node.resource = page(f"{ROOT}/x?itemsPerPage=3", 1)
    assert beyond.resize_page(-1).note == "3 per page: - goes no lower than 10."


def test_keys_that_need_a_list_say_so(nav):
    nav.current = nav.root
    assert nav.turn_page(1).note == "Not a list: [ and ] turn the pages of a list."
    assert nav.resize_page(1).note == "Not a list: + and - change the items on a list's page."


def test_go_to_finds_what_the_tree_holds_and_adds_one_node_for_the_rest(nav):
    groups = child(nav.root, "groups")
    step = nav.goto(f"{ROOT}/groups")
    assert step.fetch.node is groups and step.select is groups  # a relation not yet opened: opened there
    fetched(nav, step, page(step.fetch.url, 1))
    again = nav.goto(f"{ROOT}/groups")
    assert again.fetch is None and again.show is groups and again.select is groups
    new = nav.goto(f"{ROOT}/groups/item9/events")
    node = new.fetch.node
    assert node.kind == "goto" and node.parent is nav.root and nav.root.children[-1] is node
    assert nav.goto(f"{ROOT}/groups/item9/events").fetch.node is node  # the same node, not another
    assert [c.kind for c in nav.root.children] == ["relation", "relation", "goto"]
    fetched(nav, new, entity(f"{ROOT}/groups/item9/events", more=f"{ROOT}/more"))
    assert [c.title for c in node.children] == ["more"]  # a go-to node opens like any other


def test_a_refused_url_is_a_failed_node_and_the_title_names_it(nav):
    step = nav.goto("https://elsewhere.example/api/x")
    node = step.fetch.node
    assert nav.where() == "https://elsewhere.example/api/x"
    refused = ApiError("origin", "elsewhere.example is not api.example", url="https://elsewhere.example/api/x")
    nav.failed(step.fetch, refused)
    assert node.error is refused and not nav.expandable(node) and nav.fetching is None
    assert nav.where() == "https://elsewhere.example/api/x"


def test_a_cancelled_fetch_leaves_the_node_as_it_was(nav):
    groups = child(nav.root, "groups")
    step = nav.open(groups)
    assert nav.where() == f"{ROOT}/groups"
    nav.cancelled(step.fetch)
    assert nav.fetching is None and groups.resource is None and nav.expandable(groups)
    assert nav.where() == ROOT and nav.requested is nav.current is nav.root  # the title names what is shown
    assert nav.open(groups).fetch is not None  # and it can be asked for again


def test_back_from_a_refused_url_returns_to_the_page_you_were_on(nav):
    groups = child(nav.root, "groups")
    fetched(nav, nav.open(groups), page(f"{ROOT}/groups?itemsPerPage=2", 1))
    item0 = child(groups, "item0")
    fetched(nav, nav.open(item0), entity(f"{ROOT}/groups/item0"))
    refused = nav.goto("https://elsewhere.example/x")
    nav.failed(refused.fetch, ApiError("origin", "elsewhere.example is not api.example"))
    assert nav.current is refused.fetch.node
    back = nav.back()
    assert back.fetch is None and back.show is item0
    forward = nav.forward()
    assert forward.fetch.node is refused.fetch.node  # asked again: a failure is not kept as an answer


def test_the_title_says_what_the_panes_show_not_what_the_switches_will_ask_next(nav):
    assert nav.title() == ROOT
    groups = child(nav.root, "groups")
    nav.switch("pretty")  # on, for what is asked from now on
    step = nav.open(groups)
    assert nav.title() == f"{ROOT}/groups?pretty=true"  # waiting for it
    fetched(nav, step, page(step.fetch.url, 1))
    assert nav.title() == f"{ROOT}/groups?pretty=true"
    assert nav.open(nav.root).fetch is None and nav.title() == ROOT  # the root, as it was fetched


def test_an_item_dropped_from_a_list_is_forgotten_with_what_was_below_it(nav):
    groups = child(nav.root, "groups")
    fetched(nav, nav.open(groups), page(f"{ROOT}/groups?itemsPerPage=2", 1))
    fetched(nav, nav.open(child(groups, "item0")), entity(f"{ROOT}/groups/item0"))
    reload = nav.open(groups, reload=True)
    fetched(nav, reload, answer(reload.fetch.url, {"links": [], "results": [], "totalCount": 0}))
    assert groups.children == [] and f"{ROOT}/groups/item0" not in nav.open_at


def test_urls_keep_what_they_do_not_change():
    url = "https://h/x?b=1&pageNum=2&a=%2C"
    assert with_query(url) == url and with_query(url, ("pretty",)) == url
    assert with_query(url, pretty="true") == "https://h/x?b=1&pageNum=2&a=%2C&pretty=true"
    assert with_query(url, ("b",)) == "https://h/x?pageNum=2&a=%2C"
    assert page_key("https://h/x?pretty=true&pageNum=2&envelope=true") == page_key("https://h/x?pageNum=2")


def test_the_root_fetched_again_keeps_the_urls_typed_in(nav):
    typed = nav.goto(f"{ROOT}/groups/item9/events")
    fetched(nav, typed, entity(f"{ROOT}/groups/item9/events"))
    reload = nav.open(nav.root, reload=True)
    fetched(nav, reload, entity(ROOT, orgs=f"{ROOT}/orgs", groups=f"{ROOT}/groups"))
    assert [c.kind for c in nav.root.children] == ["relation", "relation", "goto"]
    assert nav.find(f"{ROOT}/groups/item9/events") is typed.fetch.node


def test_a_refusal_on_reload_keeps_what_the_node_held(nav):
    groups = child(nav.root, "groups")
    fetched(nav, nav.open(groups), page(f"{ROOT}/groups?itemsPerPage=2", 1))
    item0 = child(groups, "item0")
    fetched(nav, nav.open(item0), entity(f"{ROOT}/groups/item0", clusters=f"{ROOT}/groups/item0/clusters"))
    reload = nav.reload()
    fetched(nav, reload, answer(reload.fetch.url, {"error": 429, "errorCode": "RATE_LIMITED"}, status=429))
    assert item0.resource.status == 429 and [c.title for c in item0.children] == ["clusters"]
    assert nav.current is item0


def test_history_passes_over_an_item_no_longer_listed(nav):
    groups = child(nav.root, "groups")
    fetched(nav, nav.open(groups), page(f"{ROOT}/groups?itemsPerPage=2", 1))
    fetched(nav, nav.open(child(groups, "item0")), entity(f"{ROOT}/groups/item0"))
    assert nav.back().show is groups
    reload = nav.reload()
    fetched(nav, reload, answer(reload.fetch.url, {"links": [], "results": [], "totalCount": 0}))
    forward = nav.forward()  # item0 is gone: nothing ahead, and no `go to` node made for it
    assert forward.note == "Nothing to go forward to." and forward.fetch is None
    assert [c.kind for c in nav.root.children] == ["relation", "relation"]


def test_a_failure_is_what_reload_asks_for_again(nav):
    step = nav.goto(f"{ROOT}/down")
    nav.failed(step.fetch, ApiError("network", "unreachable"))
    assert nav.reload().fetch.url == f"{ROOT}/down"


def test_a_page_kept_from_before_a_switch_is_asked_for_again(nav):
    groups = child(nav.root, "groups")
    fetched(nav, nav.open(groups), page(f"{ROOT}/groups?itemsPerPage=2", 1))
    step = nav.turn_page(1)
    fetched(nav, step, page(step.fetch.url, 2))
    envelope = nav.switch("envelope")
    fetched(nav, envelope, page(envelope.fetch.url, 2))
    back = nav.back()
    assert back.fetch is not None and "envelope=true" in back.fetch.url


def bare_array(url: str, count: int) -> Resource:
    """A list answered as a bare JSON array, as the real service answers some: items with self links."""
    return answer(
        url,
        [{"id": f"r{i}", "name": f"role{i}", "links": [{"rel": "self", "href": f"{url}/r{i}"}]} for i in range(count)],
    )


def test_a_bare_array_of_objects_is_a_list_whose_items_are_the_children_and_which_has_no_pages(nav):
    roles = f"{ROOT}/roles"
    step = nav.goto(roles)
    fetched(nav, step, bare_array(roles, 3))
    node = nav.find(roles)
    assert node is not None and node.is_list and nav.list_in_view() is node
    assert [c.title for c in node.children] == ["role0", "role1", "role2"]
    assert [c.url for c in node.children] == [f"{roles}/r0", f"{roles}/r1", f"{roles}/r2"]
    for turn in (nav.turn_page(1), nav.turn_page(-1)):
        assert turn.fetch is None and turn.note == "A bare array has no pages: all 3 items are on this one."
    for size in (nav.resize_page(1), nav.resize_page(-1)):
        assert size.fetch is None and size.note == "A bare array has no pages to size: all 3 items are on this one."
    first = node.children[0]
    fetched(nav, nav.open(first), entity(f"{roles}/r0", users=f"{roles}/r0/users"))
    assert nav.list_in_view() is node and nav.turn_page(1).note.startswith("A bare array has no pages")
    fetched(nav, nav.open(node, reload=True), bare_array(roles, 3))  # the list again: the same item, still open
    assert node.children[0] is first and [c.title for c in first.children] == ["users"]
    names = f"{ROOT}/fieldNames"  # an array of names: nothing to tabulate, not a list
    fetched(nav, nav.goto(names), answer(names, ["HOSTNAME", "PORT"]))
    node = nav.find(names)
    assert node is not None and not node.is_list and node.children == []
    assert nav.turn_page(1).note == "Not a list: [ and ] turn the pages of a list."


def test_items_without_a_self_link_get_the_url_the_descriptions_item_path_makes():
    from explorer.api.description import from_bytes
    from tests.conftest import ROOT as REPOSITORY

    fixture = REPOSITORY / "tests" / "fixtures" / "openapi" / "real-shape.json"
    nav = Navigation("https://h.example/api/atlas/v2")
    nav.description = from_bytes("fixture", fixture.read_bytes(), None)
    clusters = "https://h.example/api/atlas/v2/groups/g1/clusters"
    step = nav.goto(clusters)
    listed = [{"name": "alpha"}, {"name": "beta gamma", "id": "x"}, {"stateName": "IDLE"}]
    fetched(nav, step, answer(clusters, {"results": listed, "totalCount": 3, "links": []}))
    assert [(item.title, item.url) for item in nav.find(clusters).children] == [
        ("alpha", clusters + "/alpha"),  # {clusterName}: its name
        ("beta gamma", clusters + "/beta%20gamma"),
        ("item 3", None),  # nothing to name it by: listed, not fetched
    ]
    # Without a description, an item without a self link has no URL, as before.
    plain = Navigation("https://h.example/api/atlas/v2")
    step = plain.goto(clusters)
    fetched(plain, step, answer(clusters, {"results": listed, "totalCount": 3, "links": []}))
    assert [item.url for item in plain.find(clusters).children] == [None, None, None]
