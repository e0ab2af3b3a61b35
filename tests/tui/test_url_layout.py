"""The header's place line (url_layout.py): what gives way, in order, when the URL does not fit."""

from __future__ import annotations

from rich.cells import cell_len

from explorer.tui.url_layout import path_line, title_url

GROUPS = "https://sandbox.invalid/api/service/v1.0/groups"


def test_a_line_that_fits_is_the_url_as_sent():
    """The title is a URL one can copy: its query whole, in its order, nothing between its parameters."""
    alerts = f"{GROUPS}/687b/alerts?includeCount=true&pageNum=2&itemsPerPage=100"
    assert title_url(alerts, 120) == alerts


def test_the_query_keeps_the_page_and_the_switches_where_room_is_short():
    """The path before the resource goes first, then the query's other parameters, then the size and
    the switches from the left: the page's number is the last to go."""
    alerts = f"{GROUPS}/687b4c2e6b43/alerts?includeCount=true&pageNum=2&itemsPerPage=100&pretty=true"
    assert title_url(alerts, 80) == "…ps/687b4c2e6b43/alerts?includeCount=true&pageNum=2&itemsPerPage=100&pretty=true"
    assert title_url(alerts, 50) == "…3/alerts?…&pageNum=2&itemsPerPage=100&pretty=true"
    assert title_url(alerts, 40) == "…/alerts?…&pageNum=2&pretty=true"
    assert title_url(alerts, 30) == "…/alerts?…&pageNum=2"


def test_the_last_parameter_is_cut_in_its_middle_rather_than_lost():
    """At 60 columns (42 cells for the title) a refused itemsPerPage still shows what was asked."""
    line = title_url(GROUPS + "?itemsPerPage=999999999999999999999999", 42)
    assert line == "…/groups?itemsPerPage=999…9999999999999999", line
    assert cell_len(line) <= 42


def test_the_view_parameters_give_way_from_the_left_and_the_last_is_kept():
    line = title_url(GROUPS + "/events?pretty=true&envelope=true", 30)
    assert line == "…/events?…&envelope=true", line


def test_a_path_gives_way_before_its_page():
    """The Log's path: the path before the resource goes first, then the query's other parameters."""
    events = "/groups/687b…6b43/events?includeCount=true&pageNum=2&itemsPerPage=100"
    assert path_line(events, 80) == events
    assert path_line(events, 60) == "…7b…6b43/events?includeCount=true&pageNum=2&itemsPerPage=100"
    assert path_line(events, 45) == "…87b…6b43/events?…&pageNum=2&itemsPerPage=100"
    assert path_line(events, 34) == "…ents?…&pageNum=2&itemsPerPage=100"
    assert path_line("/groups/687b…6b43/clusters/orders-prod", 8) == "…rs-prod"


def test_a_path_too_long_for_its_page_and_size_keeps_its_page():
    """Every page of a list ends in `itemsPerPage=100`: where the room is short, the size goes before
    the page's number, which is what tells the rows of the Log apart."""
    events = "/groups/687b…6b43/events?includeCount=true&pageNum=2&itemsPerPage=100"
    assert path_line(events, 24) == "…6b43/events?…&pageNum=2"
    assert path_line(events, 16) == "…nts?…&pageNum=2"
    assert path_line(events, 12) == "…s?pageNum=2"
    assert path_line(events, 11) == "…?pageNum=2"
    assert path_line("/groups/687b…6b43/events?pageNum=12&itemsPerPage=100", 12) == "…?pageNum=12"
