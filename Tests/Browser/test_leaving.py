"""napkin.js says goodbye: leaving a page (pagehide) sends a beacon that
starts its tab's grace at once, so the server releases the tab soon after
the grace (Rib House runs napkin's default, 3 s) instead of when it notices
the stream's connection drop; a reload opens its new tab within the grace.

Run with Tests/Browser/run, which starts the server and sets RIBHOUSE_URL.
"""
import time

from selenium.webdriver.support.ui import WebDriverWait

from test_live_navigation import stream_status, wait_pit_tick
from test_ribhouse import LIVE_WAIT, login

GRACE = 3  # napkin's default tab grace, in seconds


def test_leaving_the_page_releases_its_tab_after_the_grace(browser, base_url):
    driver = browser
    driver.get(base_url + "/")
    login(driver, "Ada")
    wait_pit_tick(driver, ".rh-in .pit-header")  # the page's stream is open: the tab is watched
    tab = driver.execute_script("return document.body.dataset.napkinTab;")
    cookie = "napkin_session=" + driver.get_cookie("napkin_session")["value"]
    assert stream_status(base_url, tab, cookie) == 200

    driver.get("about:blank")
    left = time.monotonic()
    # Within its grace the tab is still there (a reload would find it)...
    assert stream_status(base_url, tab, cookie) == 200, "the tab went at once, with no grace"
    # ... and soon after it, it is gone: the goodbye started the grace.
    WebDriverWait(driver, GRACE + 5, poll_frequency=0.1).until(
        lambda _: stream_status(base_url, tab, cookie) == 410, message="the server kept the tab the page left")
    took = time.monotonic() - left
    assert took < GRACE + 2, f"the tab went {took:.1f} s after the page left"


def test_a_reload_keeps_the_session_signed_in(browser, base_url):
    driver = browser
    driver.get(base_url + "/")
    login(driver, "Ada")
    old_tab = driver.execute_script("return document.body.dataset.napkinTab;")
    cookie = "napkin_session=" + driver.get_cookie("napkin_session")["value"]
    driver.refresh()
    new_tab = driver.execute_script("return document.body.dataset.napkinTab;")
    assert new_tab != old_tab
    assert driver.find_elements("css selector", ".rh-in .greeting .name"), "the reload signed Ada out"
    WebDriverWait(driver, GRACE + 5, poll_frequency=0.1).until(
        lambda _: stream_status(base_url, old_tab, cookie) == 410, message="the reloaded page's old tab stayed")
    assert stream_status(base_url, new_tab, cookie) == 200


def test_a_page_shown_again_from_the_back_forward_cache_brings_its_tab_back(browser, base_url):
    """The page goes into the back/forward cache (pagehide, persisted): it
    says goodbye and its tab is released after the grace. Shown again
    (pageshow, persisted), its stream hears 410 and the page is fetched
    again in place, live once more. The events are dispatched by hand: a
    headless browser need not keep pages in its cache."""
    driver = browser
    driver.get(base_url + "/")
    login(driver, "Ada")
    wait_pit_tick(driver, ".rh-in .pit-header")
    driver.execute_script("window.__napkinMarker = 42;")
    old_tab = driver.execute_script("return document.body.dataset.napkinTab;")
    cookie = "napkin_session=" + driver.get_cookie("napkin_session")["value"]

    driver.execute_script("window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: true}));")
    WebDriverWait(driver, GRACE + 5, poll_frequency=0.1).until(
        lambda _: stream_status(base_url, old_tab, cookie) == 410, message="the cached page's tab stayed")

    driver.execute_script("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}));")
    WebDriverWait(driver, LIVE_WAIT).until(
        lambda d: stream_status(base_url, d.execute_script("return document.body.dataset.napkinTab;"), cookie) == 200,
        message="the page shown again never got its tab back")
    assert driver.execute_script("return window.__napkinMarker;") == 42, "the page was loaded anew, not in place"
    assert driver.find_elements("css selector", ".rh-in .greeting .name"), "the page shown again is signed out"
    wait_pit_tick(driver, ".rh-in .pit-header")
