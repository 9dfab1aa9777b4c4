"""napkin's dashboard in a real browser, on Rib House's metrics listener:
refused without its token, opened with it once, live as guests come, a
session's tree, and nothing for axe to find."""
import os
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from axe_audit import assert_accessible
from test_ribhouse import LIVE_WAIT, WAIT, login, wait_for

OPS = os.environ.get("RIBHOUSE_OPS_URL", "").rstrip("/")
TOKEN = os.environ.get("RIBHOUSE_OPS_TOKEN", "")
DASHBOARD = OPS + "/_napkin/dashboard"


def texts(driver, selector):
    """The text of every element matching `selector`, read in one script: a
    patch may replace the elements between a lookup and a read."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), e => e.textContent.trim());", selector)


def figure(driver, name):
    return int(texts(driver, f"[data-figure='{name}']")[0])


def recent(driver):
    """The sessions used last, as listed: handle, link and open streams, read
    in one script (a patch may replace the rows at any time)."""
    return driver.execute_script("""
      return Array.from(document.querySelectorAll("section[aria-labelledby='dash-recent'] tbody tr"), row => ({
        handle: row.querySelector('th').textContent.trim(), href: row.querySelector('a').href,
        streams: Number(row.children[2].textContent)}));""")


def handles(driver):
    return [row["handle"] for row in recent(driver)]


def test_dashboard_refuses_without_its_token(browser):
    assert OPS and TOKEN, "Tests/Browser/run sets RIBHOUSE_OPS_URL and RIBHOUSE_OPS_TOKEN"
    for url in (DASHBOARD, DASHBOARD + "?token=wrong", OPS + "/metrics"):
        try:
            urllib.request.urlopen(url, timeout=10)
            raise AssertionError(f"{url} answered without the token")
        except urllib.error.HTTPError as error:
            assert error.code == 401, (url, error.code)
    browser.get(DASHBOARD)
    assert "Dashboard token needed" in browser.page_source
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-figure]")


def test_dashboard_is_live_and_shows_a_sessions_tree(make_browser, base_url):
    watcher = make_browser(js=True)
    watcher.get(DASHBOARD + "?token=" + TOKEN)
    wait_for(watcher, "[data-figure='sessions']")
    assert "token=" not in watcher.current_url, "the token stays out of the address bar"
    assert_accessible(watcher, "the dashboard's overview")
    listed_before = set(handles(watcher))

    guest = make_browser(js=True)
    guest.get(base_url + "/")
    login(guest, "Dashboarded")
    # No reload: the guest's session (under a handle not listed before) is
    # patched in at the top of the list, with its stream.
    WebDriverWait(watcher, LIVE_WAIT).until(
        lambda d: (lambda rows: rows and rows[0]["handle"] not in listed_before and rows[0]["streams"] >= 1)(recent(d)),
        message="the guest's session never came to the top of the list, with its stream")
    assert figure(watcher, "streams") >= 1

    # Sessions of earlier tests may also be new to the list, and signing in
    # gives the guest a new session (and handle) that may be listed a moment
    # later, so read the inspector of each new session with a stream (as
    # JSON: a script's request for a page gets no HTML) until one is the
    # guest's tree (its name is in the signed-in napkin's state).
    def guests_link(d):
        links = [row["href"] for row in recent(d) if row["handle"] not in listed_before and row["streams"] >= 1]
        return d.execute_async_script("""
          const [links, done] = [arguments[0], arguments[arguments.length - 1]];
          (async () => {
            for (const link of links) {
              const tree = await (await fetch(link, {headers: {Accept: 'application/json'}})).text();
              if (tree.includes('LaunchNapkin') && tree.includes('Dashboarded')) return done(link);
            }
            done(null);
          })().catch(() => done(null));""", links)
    link = WebDriverWait(watcher, LIVE_WAIT).until(guests_link, message="no new session showed the guest's tree")
    watcher.get(link)
    wait_for(watcher, ".dash-tree .dash-name")
    assert_accessible(watcher, "a session's tree")
    names = texts(watcher, ".dash-name")
    assert "LaunchNapkin" in names, names
    # The guest opens the Pit Board: the tree shows it in its slot, live.
    guest.get(base_url + "/pit")
    WebDriverWait(watcher, LIVE_WAIT).until(
        lambda d: "PitBoardNapkin" in texts(d, ".dash-name"),
        message="the inspector never showed the Pit Board")
