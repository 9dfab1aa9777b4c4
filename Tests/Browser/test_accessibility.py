"""axe-core finds nothing on Rib House's screens, signed out and in, with a
toast showing."""
from selenium.webdriver.support.ui import WebDriverWait

from axe_audit import assert_accessible
from test_ribhouse import WAIT, login, wait_for


def test_rib_house_screens_pass_axe(browser, base_url):
    browser.get(base_url + "/")
    wait_for(browser, ".rh-out .hero")
    assert_accessible(browser, "the login")
    login(browser, "Ada")
    assert_accessible(browser, "the menu")
    browser.get(base_url + "/pit")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements("css selector", ".pitboard td"))
    assert_accessible(browser, "the pit board")
