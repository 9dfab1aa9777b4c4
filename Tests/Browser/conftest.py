"""Fixtures for Rib House's real-browser suite: headless Chromium through
selenium, with JavaScript on or off, at phone or desktop size.

The server under test is at $RIBHOUSE_URL (Tests/Browser/run starts one).
Screenshots land in Tests/Browser/artifacts/ (a failing test leaves one too).
"""
import base64
import os
import pathlib

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ARTIFACTS = pathlib.Path(__file__).resolve().parent / "artifacts"

PHONE = (390, 844)
DESKTOP = (1280, 900)
SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture(scope="session")
def base_url():
    url = os.environ.get("RIBHOUSE_URL")
    if not url:
        pytest.exit("RIBHOUSE_URL is not set; run the suite with Tests/Browser/run", returncode=2)
    return url.rstrip("/")


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def new_driver(js=True, size=DESKTOP):
    """A fresh headless Chromium with its own profile (so its own cookies)."""
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--hide-scrollbars", "--no-first-run", "--disable-extensions",
                f"--window-size={size[0]},{size[1]}"):
        options.add_argument(arg)
    binary = os.environ.get("CHROME_BIN") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if binary:
        options.binary_location = binary
    if not js:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = os.environ.get("CHROMEDRIVER") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    service = Service(driver_path) if driver_path else Service()
    driver = webdriver.Chrome(service=service, options=options)
    # The window size flag sets the outer window; pin the viewport exactly,
    # as a phone when narrow (so <meta name=viewport> applies).
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
    })
    driver.set_page_load_timeout(20)
    return driver


def save_screenshot(driver, path):
    """The whole page, not just the viewport."""
    try:
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        pathlib.Path(path).write_bytes(base64.b64decode(shot["data"]))
    except Exception:  # an older driver: the viewport will do
        driver.save_screenshot(str(path))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)


@pytest.fixture
def make_browser(request, artifacts):
    """Factory: make_browser(js=True, size=DESKTOP) -> driver, quit after the test."""
    drivers = []

    def make(js=True, size=DESKTOP):
        driver = new_driver(js=js, size=size)
        drivers.append(driver)
        return driver

    yield make
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for i, driver in enumerate(drivers):
        if failed:
            name = "".join(c if c.isalnum() or c in "-_" else "_" for c in request.node.name)
            try:
                save_screenshot(driver, artifacts / f"FAILED-{name}-{i}.png")
            except Exception:
                pass
        driver.quit()


@pytest.fixture
def browser(make_browser):
    """JavaScript on, desktop size."""
    return make_browser(js=True, size=DESKTOP)


@pytest.fixture
def browser_nojs(make_browser):
    """JavaScript off (Chrome content setting), desktop size."""
    return make_browser(js=False, size=DESKTOP)


@pytest.fixture
def phone(make_browser):
    """JavaScript on, 390 x 844."""
    return make_browser(js=True, size=PHONE)


@pytest.fixture(params=sorted(SIZES), ids=sorted(SIZES))
def sized_browser(request, make_browser):
    """JavaScript on, once at phone and once at desktop size."""
    return make_browser(js=True, size=SIZES[request.param])
