"""Rib House in a real browser: the login flow with JavaScript on (live
updates without reload, toasts) and off (plain form posts), bad names, the
three screens at phone and desktop widths, the Content-Security-Policy,
napkin.js's guards: same-origin paths only, an ended session that stops and
says so, jittered reconnects, and toasts that never block a control and close
with or without JavaScript; and a browser that quits leaving the house.

Run with Tests/Browser/run, which starts the server and sets RIBHOUSE_URL.
"""
import json
import re
import secrets
import time
import urllib.error
import urllib.request

import pytest
from selenium.common.exceptions import (ElementClickInterceptedException, NoAlertPresentException,
                                        NoSuchElementException, StaleElementReferenceException)
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from conftest import DESKTOP, PHONE, save_screenshot

FOODS = ["Brisket", "Pulled Pork", "St. Louis Ribs", "Burnt Ends", "Smoked Sausage"]
XSS_NAME = "<script>alert(1)</script>"
WAIT = 10          # seconds for anything that follows a click
LIVE_WAIT = 20     # seconds for a server-side change (the pit moves every ~2 s)


# ----------------------------------------------------------------- helpers

def wait_for(driver, css, timeout=WAIT):
    """The first element matching css, once it is visible."""
    return WebDriverWait(driver, timeout).until(
        EC.visibility_of_element_located((By.CSS_SELECTOR, css)), message=f"{css} never became visible")


def wait_gone(driver, css, timeout=WAIT):
    WebDriverWait(driver, timeout).until(
        lambda d: not d.find_elements(By.CSS_SELECTOR, css), message=f"{css} is still there")


def text_of(driver, css):
    """textContent of the first match, or None (immune to stale elements)."""
    return driver.execute_script(
        "const el = document.querySelector(arguments[0]); return el ? el.textContent : null;", css)


def click(driver, css, timeout=WAIT):
    """Clicks css, retrying while live patches replace it under our feet."""
    def attempt(d):
        try:
            element = d.find_element(By.CSS_SELECTOR, css)
            if not element.is_displayed():
                return False
            element.click()
            return True
        except (StaleElementReferenceException, NoSuchElementException, ElementClickInterceptedException):
            return False
    WebDriverWait(driver, timeout).until(attempt, message=f"could not click {css}")


def assert_no_alert(driver):
    try:
        alert = driver.switch_to.alert
    except NoAlertPresentException:
        return
    text = alert.text
    alert.dismiss()
    pytest.fail(f"an alert opened: {text!r}")


def submit_login(driver, name, *, force=False):
    """Types name into the login form and presses Login. force=True sets the
    value directly (past maxlength), as a hand-made request could."""
    field = wait_for(driver, "form.login input[name='name']")
    field.clear()
    if force:
        driver.execute_script("arguments[0].value = arguments[1];", field, name)
    else:
        field.send_keys(name)
    click(driver, "form.login button[type='submit']")


def login(driver, name):
    submit_login(driver, name)
    WebDriverWait(driver, WAIT).until(
        lambda d: text_of(d, ".rh-in .greeting .name") == name,
        message=f"the greeting never showed {name!r}")


def logout(driver):
    click(driver, "form.logout button")
    wait_for(driver, ".rh-out .hero")
    wait_gone(driver, ".rh-in")


def foods(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.rh-in .foods li'), li => li.textContent.trim());")


def http(url, data=None, headers=None):
    """(status, headers, body) — errors are answers too."""
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode("utf-8", "replace")


def announce(base_url, text):
    status, _, body = http(f"{base_url}/api/announcements", json.dumps({"text": text}).encode(),
                           {"Content-Type": "application/json"})
    assert 200 <= status < 300, f"POST /api/announcements answered {status}: {body}"


def toast_texts(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.toast'), t => (t.querySelector('.toast-text') || t).textContent.trim());")


def assert_fits(driver, css):
    """css is rendered, visible and inside the viewport's width."""
    wait_for(driver, css)
    box = driver.execute_script(
        "const el = document.querySelector(arguments[0]); const r = el.getBoundingClientRect();"
        "return {left: r.left, right: r.right, width: r.width, height: r.height, vw: window.innerWidth,"
        " hidden: getComputedStyle(el).visibility === 'hidden'};", css)
    assert box["width"] > 0 and box["height"] > 0 and not box["hidden"], f"{css} is not visible: {box}"
    assert box["left"] >= -0.5 and box["right"] <= box["vw"] + 0.5, f"{css} sticks out of the viewport: {box}"


def assert_no_horizontal_overflow(driver):
    widths = driver.execute_script(
        "return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth};")
    assert widths["scroll"] <= widths["inner"], f"the page scrolls sideways: {widths}"


def inline_scripts(driver):
    return driver.execute_script("return document.querySelectorAll('script:not([src])').length;")


# ------------------------------------------------------------------- tests

def test_login_flow_with_javascript(browser, base_url):
    driver = browser
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")

    # A name that is also markup comes back as text.
    login(driver, XSS_NAME)
    assert_no_alert(driver)
    assert driver.find_elements(By.CSS_SELECTOR, ".greeting script") == []
    assert text_of(driver, ".rh-in .greeting .name") == XSS_NAME

    logout(driver)
    login(driver, "Ada")
    assert foods(driver) == FOODS

    # The Pit Board, then a live update with no reload.
    click(driver, ".tabs a[href='/pit']")
    wait_for(driver, ".pitboard")
    assert driver.find_elements(By.CSS_SELECTOR, ".pitboard .smokers tbody tr"), "the board has no smokers"
    marker = secrets.token_hex(8)
    driver.execute_script("window.__ribhouseMarker = arguments[0];", marker)
    first = text_of(driver, ".pitboard .updated")
    assert first, ".pitboard .updated is empty"
    WebDriverWait(driver, LIVE_WAIT).until(
        lambda d: (text_of(d, ".pitboard .updated") or first) != first,
        message="the Pit Board never updated live")
    assert driver.execute_script("return window.__ribhouseMarker;") == marker, "the page reloaded"

    # An announcement arrives as a toast.
    announce(base_url, "Last call for burnt ends!")
    WebDriverWait(driver, WAIT).until(
        lambda d: "Last call for burnt ends!" in toast_texts(d), message="the toast never showed")
    assert driver.execute_script("return window.__ribhouseMarker;") == marker, "the page reloaded"

    logout(driver)


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("name", ["", "   ", "x" * 41], ids=["empty", "blank", "41-chars"])
def test_bad_name_shows_error(make_browser, base_url, js, name):
    driver = make_browser(js=js)
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")
    submit_login(driver, name, force=True)
    error = wait_for(driver, ".rh-out .napkin-field-message")
    assert error.text.strip(), "the error is empty"
    assert not driver.find_elements(By.CSS_SELECTOR, ".rh-in")
    # Still signed out after a fresh load, too.
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")
    assert not driver.find_elements(By.CSS_SELECTOR, ".rh-in")


def test_login_flow_without_javascript(browser_nojs, base_url):
    driver = browser_nojs
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")

    driver.execute_script("window.__ribhouseMarker = 1;")
    login(driver, "Ada")      # a plain post, a 303, a fresh page
    assert driver.execute_script("return window.__ribhouseMarker;") is None, "no page load: was JS really off?"
    assert foods(driver) == FOODS
    assert "/_napkin/" not in driver.current_url, f"the browser stayed on {driver.current_url}"

    driver.get(base_url + "/pit")
    wait_for(driver, ".pitboard")
    assert driver.find_elements(By.CSS_SELECTOR, ".pitboard .smokers tbody tr")
    assert text_of(driver, ".rh-in .greeting .name") == "Ada"

    logout(driver)
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")


SCREENS = {
    "signed-out": [".rh-out .kicker", ".rh-out .hero", "form.login input[name='name']", "form.login button.ink"],
    "signed-in": [".rh-in .greeting .name", ".rh-in .pit-header", ".rh-in .foods", ".specials",
                  ".in-house", "form.logout button.ghost"],
    "pit-board": [".rh-in .greeting .name", ".pitboard", ".pitboard .smokers", ".pitboard .updated"],
}


def check_screen(driver, artifacts, screen, width):
    for css in SCREENS[screen]:
        assert_fits(driver, css)
    assert_no_horizontal_overflow(driver)
    assert inline_scripts(driver) == 0
    save_screenshot(driver, artifacts / f"{screen}-{width}.png")


def test_screens_fit_phone_and_desktop(sized_browser, base_url, artifacts):
    driver = sized_browser
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")
    width = driver.execute_script("return window.innerWidth;")
    assert width in (PHONE[0], DESKTOP[0]), \
        f"viewport is {width}px wide; is <meta name=viewport content='width=device-width'> missing?"
    check_screen(driver, artifacts, "signed-out", width)

    login(driver, "Ada")
    assert len(foods(driver)) == len(FOODS)
    check_screen(driver, artifacts, "signed-in", width)

    driver.get(base_url + "/pit")
    wait_for(driver, ".pitboard")
    check_screen(driver, artifacts, "pit-board", width)


def test_content_security_policy(browser, base_url):
    status, headers, body = http(base_url + "/", headers={"Accept": "text/html"})
    assert status == 200
    policy = headers.get("Content-Security-Policy")
    assert policy, "no Content-Security-Policy header"
    directives = {d.split()[0].lower(): d.split()[1:] for d in policy.split(";") if d.strip()}
    assert "script-src" in directives, f"no script-src in {policy!r}"
    sources = [s.lower() for s in directives["script-src"]]
    assert "'self'" in sources, f"script-src is {sources}"
    assert "'unsafe-inline'" not in sources and "'unsafe-eval'" not in sources, f"script-src is {sources}"

    # No inline script in the HTML; the client is an external file.
    assert not re.search(r"<script(?![^>]*\bsrc\s*=)[^>]*>", body, re.I), "an inline <script> in the page"
    assert re.search(r"<script[^>]*\bsrc\s*=\s*\"?/_napkin/napkin\.js", body, re.I), "napkin.js is not loaded"

    # In the browser: no inline scripts on any screen, no CSP violation reported.
    driver = browser
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")
    assert inline_scripts(driver) == 0
    login(driver, "Ada")
    assert inline_scripts(driver) == 0
    driver.get(base_url + "/pit")
    wait_for(driver, ".pitboard")
    assert inline_scripts(driver) == 0
    violations = [entry["message"] for entry in driver.get_log("browser")
                  if "Content Security Policy" in entry.get("message", "")]
    assert violations == [], f"CSP violations: {violations}"


def test_missing_page(browser, base_url):
    status, _, body = http(base_url + "/no-such-grill", headers={"Accept": "text/html"})
    assert status == 404
    assert "rh-missing" in body
    driver = browser
    driver.get(base_url + "/no-such-grill")
    wait_for(driver, ".rh-missing .hero")
    click(driver, ".rh-missing a[href='/']")
    wait_for(driver, ".rh-out .hero")


# ---------------------------------------------------- same-origin paths only

# Paths a naive "starts with / but not //" check calls local, which the
# browser's URL parser reads as //evil.invalid (another origin).
OFF_ORIGIN_PATHS = {"backslash": "/\\evil.invalid/", "tab": "/\t/evil.invalid/"}


@pytest.mark.parametrize("path", sorted(OFF_ORIGIN_PATHS), ids=sorted(OFF_ORIGIN_PATHS))
def test_return_path_must_stay_on_origin(browser, base_url, path):
    driver = browser
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")
    driver.execute_script(
        "window.__ribhouseMarker = 1;"
        "document.querySelector('form.login input[name=\"_return\"]').value = arguments[0];",
        OFF_ORIGIN_PATHS[path])
    submit_login(driver, "Ada")
    WebDriverWait(driver, WAIT).until(
        lambda d: not d.current_url.startswith(base_url) or text_of(d, ".rh-in .greeting .name") == "Ada",
        message="neither signed in nor navigated")
    # napkin.js would navigate right after the 204, about when the patch
    # lands: a moment more shows whether it tried.
    time.sleep(1.0)
    assert driver.current_url.startswith(base_url + "/"), f"napkin.js followed {path!r} to {driver.current_url}"
    assert driver.execute_script("return window.__ribhouseMarker;") == 1, "the page navigated"
    assert text_of(driver, ".rh-in .greeting .name") == "Ada"


# ------------------------------------------------------- the event stream

def events_requests(driver):
    """The event-stream requests this page made, EventSource and probes alike
    (resource timing lists both), with their start times in milliseconds."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter(e => new URL(e.name).pathname === '/_napkin/events')"
        ".map(e => ({start: e.startTime, by: e.initiatorType}));")


def block_event_stream(driver, blocked):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/_napkin/events*"] if blocked else []})


def test_ended_session_shows_banner_and_stops_reconnecting(browser, base_url):
    """A tab whose stream comes back to a session the server no longer knows
    (a restart, an eviction) hears 204: it stops and says so, once."""
    driver = browser
    # The stream cannot connect at first (as after a network drop) ...
    block_event_stream(driver, True)
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")
    WebDriverWait(driver, WAIT).until(lambda d: len(events_requests(d)) >= 1, message="the stream never tried")
    # ... and when it can again, the session is one the server does not know.
    driver.delete_cookie("napkin_session")
    driver.add_cookie({"name": "napkin_session", "value": "0" * 32, "path": "/", "httpOnly": True})
    block_event_stream(driver, False)

    banner = wait_for(driver, ".napkin-ended", timeout=LIVE_WAIT)
    assert banner.get_attribute("role") == "status"
    assert "ended" in banner.text.lower(), banner.text
    link = banner.find_element(By.CSS_SELECTOR, "a")
    assert link.get_attribute("href") == base_url + "/", link.get_attribute("href")
    assert driver.find_elements(By.CSS_SELECTOR, ".napkin-ended script") == []

    # No further reconnects: the count of stream requests stays put.
    settled = len(events_requests(driver))
    time.sleep(3)
    assert len(events_requests(driver)) == settled, f"still reconnecting: {events_requests(driver)}"
    assert len(driver.find_elements(By.CSS_SELECTOR, ".napkin-ended")) == 1

    # The page itself stays usable, and the link starts afresh.
    link.click()
    wait_for(driver, ".rh-out .hero")
    wait_gone(driver, ".napkin-ended")
    assert driver.get_cookie("napkin_session")["value"] != "0" * 32


def test_tab_pushed_out_by_newer_streams_stops_and_says_so(browser, base_url):
    """A session holds at most eight streams; when more open, the oldest tab
    is told it was replaced. It must stop (reconnecting would push another
    tab out in turn) and say why, with a way back."""
    import http.client
    from urllib.parse import urlparse
    driver = browser
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")
    time.sleep(1)  # let the browser's stream reach the server before the newer ones
    cookie = driver.get_cookie("napkin_session")["value"]
    where = urlparse(base_url)
    newer = []
    for _ in range(8):
        conn = http.client.HTTPConnection(where.hostname, where.port, timeout=WAIT)
        conn.request("GET", "/_napkin/events", headers={"Cookie": "napkin_session=" + cookie})
        assert conn.getresponse().status == 200
        newer.append(conn)
    try:
        banner = wait_for(driver, ".napkin-ended", timeout=LIVE_WAIT)
        assert "newer tabs" in banner.text, banner.text
        settled = len(events_requests(driver))
        time.sleep(2)
        assert len(events_requests(driver)) == settled, "the replaced tab kept reconnecting"
    finally:
        for conn in newer:
            conn.close()


def set_visibility(driver, state):
    """Makes the page believe it is hidden or visible, as a tab switch would."""
    driver.execute_script(
        "Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => arguments[0]});"
        "document.dispatchEvent(new Event('visibilitychange'));", state)


def test_hidden_tab_gives_its_stream_back_and_catches_up(browser, base_url):
    """A hidden tab closes its stream after a grace (browsers allow six
    connections per host, and background tabs must not hold them all); shown
    again it reconnects and gets what it missed."""
    driver = browser
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")
    time.sleep(1)  # the stream is open
    driver.execute_script("document.body.dataset.napkinHiddenGrace = '200';")
    set_visibility(driver, "hidden")
    time.sleep(1)  # past the grace: the stream is given back
    text = "While you were away: " + secrets.token_hex(4)
    announce(base_url, text)
    time.sleep(1.5)
    assert text not in toast_texts(driver), "a hidden tab past its grace still received patches"
    set_visibility(driver, "visible")
    WebDriverWait(driver, LIVE_WAIT).until(lambda d: text in toast_texts(d),
                                           message="the tab did not catch up when shown again")


def test_reconnect_backoff_is_jittered(browser, base_url):
    """Reconnect delays are drawn between the minimum and a growing cap, so
    tabs that lost the server together do not come back together. With
    Math.random pinned to 0 every delay is the minimum (0.5 s); a fixed
    doubling schedule would wait 0.5, 1, 2, 4 s."""
    driver = browser
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "Math.random = () => 0;"})
    block_event_stream(driver, True)
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")

    def attempts(d):
        starts = [r["start"] for r in events_requests(d) if r["by"] != "fetch"]
        return starts if len(starts) >= 5 else False
    starts = WebDriverWait(driver, 15).until(attempts, message="the stream did not retry five times")
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert all(400 <= gap < 900 for gap in gaps[:4]), f"reconnect gaps (ms) follow a fixed schedule: {gaps}"


# ------------------------------------------------------------------ toasts

def test_logout_clickable_under_toast_at_phone_width(phone, base_url, artifacts):
    driver = phone
    driver.get(base_url + "/")
    login(driver, "Ada")
    announce(base_url, "Burnt ends are out of the smoker!")
    wait_for(driver, ".toast")

    # Put Logout right under the toast (scrolling the page, as a guest would).
    driver.execute_script("""
        const button = document.querySelector('form.logout button').getBoundingClientRect();
        const toast = document.querySelector('.toast').getBoundingClientRect();
        window.scrollBy(0, (button.top + button.bottom) / 2 - (toast.top + toast.bottom) / 2);""")
    geometry = driver.execute_script("""
        const b = document.querySelector('form.logout button').getBoundingClientRect();
        const t = document.querySelector('.toast').getBoundingClientRect();
        const x = b.left + b.width / 2, y = b.top + b.height / 2;
        const hit = document.elementFromPoint(x, y);
        return {covered: x >= t.left && x <= t.right && y >= t.top && y <= t.bottom,
                hitsButton: !!hit && !!hit.closest('form.logout')};""")
    save_screenshot(driver, artifacts / "toast-over-logout-390.png")
    assert geometry["covered"], f"the toast does not lie over Logout; the test proves nothing: {geometry}"

    # A real click: retried only when a live patch (the pit line, every two
    # seconds) replaced the button under us, never when something covers it.
    def attempt(d):
        try:
            d.find_element(By.CSS_SELECTOR, "form.logout button").click()
            return True
        except (StaleElementReferenceException, NoSuchElementException):
            return False
    try:
        WebDriverWait(driver, WAIT).until(attempt, message="Logout kept going stale")
    except ElementClickInterceptedException as error:
        pytest.fail(f"the toast intercepted the click on Logout: {error.msg.splitlines()[0]}")
    assert geometry["hitsButton"], "a click at Logout's centre lands on the toast"
    wait_for(driver, ".rh-out .hero")


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_toast_close_button(make_browser, base_url, js):
    driver = make_browser(js=js, size=PHONE)
    driver.get(base_url + "/")
    login(driver, "Ada")
    announce(base_url, "Brisket is up!")
    if js:
        wait_for(driver, ".toast")
    else:
        driver.get(base_url + "/")          # without JS the toast comes with the next page
        wait_for(driver, ".toast")
    assert toast_texts(driver) == ["Brisket is up!"]
    close = wait_for(driver, ".toast .toast-close")
    assert close.get_attribute("aria-label"), "the close button has no accessible name"
    if js:
        driver.execute_script("document.querySelector('.toasts').dataset.before = '1';")
    click(driver, ".toast .toast-close")
    wait_gone(driver, ".toast")
    if js:
        # The server's patch (a fresh toast region) says the post landed.
        WebDriverWait(driver, WAIT).until(
            lambda d: d.execute_script("const box = document.querySelector('.toasts'); return !!box && !box.dataset.before;"),
            message="no patch followed the dismissal")
        assert driver.find_elements(By.CSS_SELECTOR, ".toast") == []
    else:
        assert driver.current_url == base_url + "/"
    # Gone for good, not only from this copy of the page.
    driver.get(base_url + "/")
    wait_for(driver, ".rh-in .greeting")
    assert driver.find_elements(By.CSS_SELECTOR, ".toast") == []


# ------------------------------------------------------- in the house now

def house(driver):
    """The names "In the house now" shows, read at once (a patch may replace the list any time)."""
    return driver.execute_script("return [...document.querySelectorAll('.in-house li')].map(li => li.textContent);")


# Sets window.__left once the list no longer names arguments[0].
WATCH_LEAVING = """
const name = arguments[0];
window.__left = false;
new MutationObserver(() => {
    const names = [...document.querySelectorAll('.in-house li')].map(li => li.textContent);
    if (!names.includes(name)) window.__left = true;
}).observe(document.body, {subtree: true, childList: true, characterData: true});
"""


def test_a_browser_that_quits_leaves_the_house(make_browser, base_url):
    tag = secrets.token_hex(3)
    leaver, stayer = f"Aa Leaver {tag}", f"Aa Stayer {tag}"
    # Its own Chromium (not make_browser's), since the test quits it.
    from conftest import new_driver
    gone = new_driver()
    try:
        watching = make_browser()
        for driver, name in ((gone, leaver), (watching, stayer)):
            driver.get(base_url + "/")
            login(driver, name)
        WebDriverWait(watching, WAIT).until(lambda d: leaver in house(d), message=f"{leaver} never showed in the house")
        watching.execute_script(WATCH_LEAVING, leaver)

        # A reload is no leave: the new page's tab tracks the diner before
        # the old one is released, one grace (at most 5 s) later. Nothing
        # announces that release to another browser: wait the grace out.
        gone.refresh()
        WebDriverWait(gone, WAIT).until(lambda d: text_of(d, ".rh-in .greeting .name") == leaver)
        time.sleep(6)
        assert not watching.execute_script("return window.__left"), "a reload showed the diner leaving"
    finally:
        gone.quit()
    quit_at = time.monotonic()
    WebDriverWait(watching, 5).until(lambda d: leaver not in house(d),
                                     message=f"{leaver} was still in the house 5 s after their browser quit")
    assert time.monotonic() - quit_at < 5
