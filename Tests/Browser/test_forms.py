"""Rib House's announcement form in a real browser: a message appears under
the field as the guest types (a validation pass, nothing sent); while a post
is on its way the form is aria-busy and its button disabled with its working
label, so a double click posts once; with JavaScript off the form still
posts, and a refused post shows its message after the page comes back.

Run with Tests/Browser/run, which starts the server and sets RIBHOUSE_URL.
"""
import secrets

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_ribhouse import LIVE_WAIT, WAIT, click, login, text_of, toast_texts, wait_for

FIELD = ".announce input[name='text']"
MESSAGE = ".announce .napkin-field-message"
BUTTON = ".announce button[type='submit']"

# Counts the posts napkin.js sends to the action path, by kind: a real post
# or a validation pass (X-Napkin-Validate).
COUNT_POSTS = """
window.__posts = { sent: 0, checks: 0 };
const original = window.fetch;
window.fetch = function (url, init) {
  if (init && init.method === 'POST' && String(url).includes('/_napkin/action')) {
    if (init.headers && init.headers['X-Napkin-Validate']) window.__posts.checks += 1;
    else window.__posts.sent += 1;
  }
  return original.apply(this, arguments);
};
// A form with a file input posts through XHR (for its upload progress).
const open = XMLHttpRequest.prototype.open;
XMLHttpRequest.prototype.open = function (method, url) {
  if (method === 'POST' && String(url).includes('/_napkin/action')) window.__posts.sent += 1;
  return open.apply(this, arguments);
};
"""


def message_text(driver):
    return driver.execute_script(
        "const el = document.querySelector(arguments[0]); return el && !el.hidden ? el.textContent : null;", MESSAGE)


def test_message_appears_while_typing(browser, base_url):
    driver = browser
    driver.get(base_url + "/")
    login(driver, "Ada")
    driver.execute_script(COUNT_POSTS)
    field = wait_for(driver, FIELD)
    field.send_keys("x" * 141)
    WebDriverWait(driver, WAIT).until(
        lambda d: message_text(d) == "The announcement is longer than 140 characters.",
        message="no message while typing a 141-character announcement")
    assert field.get_attribute("aria-invalid") == "true"
    message_id = driver.find_element(By.CSS_SELECTOR, MESSAGE).get_attribute("id")
    assert field.get_attribute("aria-describedby") == message_id
    # Back within bounds, the message goes and the field is no longer marked.
    field.send_keys("\b")
    WebDriverWait(driver, WAIT).until(lambda d: message_text(d) is None, message="the message stayed")
    assert field.get_attribute("aria-invalid") is None
    # Typing asked, debounced; it never posted the form.
    posts = driver.execute_script("return window.__posts;")
    assert posts["sent"] == 0
    assert 1 <= posts["checks"] < 141, posts


def test_pending_state_and_double_click_post_once(browser, base_url):
    driver = browser
    driver.get(base_url + "/")
    login(driver, "Ada")
    driver.execute_script(COUNT_POSTS)
    text = "Double click " + secrets.token_hex(4)
    wait_for(driver, FIELD).send_keys(text)
    # Pressed twice in one turn of the page: the first press makes the
    # form busy at once, the second sends nothing.
    state = driver.execute_script("""
        const button = document.querySelector(arguments[0]);
        const form = button.form;
        button.click();
        const during = { busy: form.getAttribute('aria-busy'), disabled: button.disabled, label: button.textContent };
        button.click();
        form.requestSubmit();
        return during;
    """, BUTTON)
    assert state == {"busy": "true", "disabled": True, "label": "Announcing…"}
    WebDriverWait(driver, LIVE_WAIT).until(lambda d: text in toast_texts(d), message="the announcement never came back")
    WebDriverWait(driver, WAIT).until(
        lambda d: d.execute_script("const b = document.querySelector(arguments[0]); return !b.disabled && b.textContent === 'Announce' && !b.form.hasAttribute('aria-busy');", BUTTON),
        message="the form stayed busy")
    assert driver.execute_script("return window.__posts.sent;") == 1
    # A real double click, too.
    other = "Twice " + secrets.token_hex(4)
    wait_for(driver, FIELD).send_keys(other)
    ActionChains(driver).double_click(driver.find_element(By.CSS_SELECTOR, BUTTON)).perform()
    WebDriverWait(driver, LIVE_WAIT).until(lambda d: other in toast_texts(d), message="the second announcement never came back")
    assert toast_texts(driver).count(other) == 1
    assert driver.execute_script("return window.__posts.sent;") == 2


def test_without_javascript_the_form_posts_and_shows_messages(browser_nojs, base_url):
    driver = browser_nojs
    driver.get(base_url + "/")
    login(driver, "Ada")
    field = wait_for(driver, FIELD)
    field.send_keys("x" * 141)
    # Nothing checks it while typing without JavaScript.
    assert message_text(driver) is None
    click(driver, BUTTON)
    WebDriverWait(driver, WAIT).until(
        lambda d: message_text(d) == "The announcement is longer than 140 characters.",
        message="no message after the refused post")
    field = wait_for(driver, FIELD)
    assert field.get_attribute("value") == "x" * 141
    assert field.get_attribute("aria-invalid") == "true"
    # Corrected, it posts: the page comes back without the message.
    field.clear()
    field.send_keys("Brisket is out of the smoker")
    click(driver, BUTTON)
    WebDriverWait(driver, WAIT).until(lambda d: message_text(d) is None, message="the message stayed after a good post")
    assert text_of(driver, ".rh-in .greeting .name") == "Ada"
