"""napkin.js's answer to a refused post (422) in a real browser: the
fragment the server re-rendered with its message takes the old one's place,
what was typed stays, and focus goes to the field at fault; a refusal sent
as text is a toast. No page load either way.

Rib House's own forms never refuse a post (its login shows its own
message), and its screens are not for tests to change, so each test adds a
fragment of its own to the page, shaped as napkin renders one, and answers
its post with what napkin answers a refused one: the page's `fetch` is
wrapped so that posts to the action path get that answer, and every other
request goes to the server as usual.

Run with Tests/Browser/run, which starts the server and sets RIBHOUSE_URL.
"""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_ribhouse import WAIT, click, toast_texts, wait_for

MARKER = "return window.__napkinMarker;"

# A fragment with a napkin form, as WebViewController renders one, added to
# <body> (no server patch ever names its id). `refused` is the same
# fragment as napkin answers it after a FormError on `quantity`: the message
# at the top of the form, the field marked by the view. The wrapped fetch
# answers posts to the action path with `window.__refusal` and counts them.
SETUP = """
const id = 'n-0000refused0';
const hidden = (action, key) =>
  `<input type="hidden" name="_tab" value="${document.body.dataset.napkinTab}">` +
  `<input type="hidden" name="_fragment" value="${id}">` +
  `<input type="hidden" name="_action" value="${action}">` +
  `<input type="hidden" name="_csrf" value="${document.body.dataset.napkinCsrf}">` +
  `<input type="hidden" name="_return" value="${location.pathname}">` +
  (key ? `<input type="hidden" name="_key" value="${key}">` : '');
const render = (problem) => {
  const error = problem
    ? '<p class="napkin-error" role="alert" id="' + id + '-error-1" data-napkin-field="quantity">Quantity must be a whole number.</p>'
    : '';
  const invalid = problem ? ' aria-invalid="true" aria-describedby="' + id + '-error-1"' : '';
  return `<div class="napkin" id="${id}" data-napkin="RefusalTest">` +
    `<form method="post" action="/_napkin/action" data-napkin-form>${hidden('order')}${error}` +
    `<input name="name" id="rt-name" value=""><input name="quantity" id="rt-quantity" value="1"${invalid}>` +
    `<button type="submit" id="rt-order">Order</button></form>` +
    `<form method="post" action="/_napkin/action" data-napkin-form>${hidden('note')}` +
    `<input name="note" id="rt-note" value=""><button type="submit" id="rt-note-send">Send</button></form>` +
    `</div>`;
};
document.body.insertAdjacentHTML('beforeend', render(false));
window.__refusal = {status: 422, type: 'text/html; charset=utf-8', body: render(true)};
window.__posts = [];
const fetched = window.fetch;
window.fetch = (url, options) => {
  if (options && options.method === 'POST' && new URL(url, location.href).pathname === '/_napkin/action') {
    window.__posts.push(String(options.body));
    const answer = window.__refusal;
    return Promise.resolve(new Response(answer.body, {status: answer.status, headers: {'Content-Type': answer.type}}));
  }
  return fetched(url, options);
};
window.__napkinMarker = 42;
"""


def value(driver, css):
    return driver.find_element(By.CSS_SELECTOR, css).get_attribute("value")


def focused_id(driver):
    return driver.execute_script("return document.activeElement && document.activeElement.id;")


def posts(driver):
    return driver.execute_script("return window.__posts.length;")


def start(driver, base_url):
    """The welcome page, with the test's fragment added and fetch wrapped."""
    driver.get(base_url + "/")
    wait_for(driver, ".rh-out .hero")
    driver.execute_script(SETUP)


def test_refused_post_shows_the_message_keeps_typing_and_focuses_the_field(browser, base_url):
    driver = browser
    start(driver, base_url)
    wait_for(driver, "#rt-name").send_keys("Ada Lovelace")
    quantity = driver.find_element(By.CSS_SELECTOR, "#rt-quantity")
    quantity.clear()
    quantity.send_keys("lots")
    # Enter in the name field submits the form, as a person would.
    driver.find_element(By.CSS_SELECTOR, "#rt-name").send_keys("\n")
    error = wait_for(driver, "#n-0000refused0 .napkin-error")
    assert error.text == "Quantity must be a whole number."
    assert error.get_attribute("role") == "alert"
    assert posts(driver) == 1
    assert "name=Ada+Lovelace" in driver.execute_script("return window.__posts[0];")
    # The fragment was replaced in place: no page load, no toast.
    assert driver.execute_script(MARKER) == 42, "the refusal loaded a new page"
    assert toast_texts(driver) == [], "the refusal was shown as an error toast"
    assert len(driver.find_elements(By.CSS_SELECTOR, "#n-0000refused0")) == 1
    # What was typed stays (the server filled neither field in itself).
    assert value(driver, "#rt-name") == "Ada Lovelace"
    assert value(driver, "#rt-quantity") == "lots"
    # Focus moved from the name field to the field at fault.
    assert focused_id(driver) == "rt-quantity"
    assert driver.find_element(By.CSS_SELECTOR, "#rt-quantity").get_attribute("aria-invalid") == "true"

    # The form works again: another refused post, from its button this time.
    click(driver, "#rt-order")
    WebDriverWait(driver, WAIT).until(lambda d: posts(d) == 2, message="the refused form did not post again")
    wait_for(driver, "#n-0000refused0 .napkin-error")
    assert value(driver, "#rt-quantity") == "lots"
    assert focused_id(driver) == "rt-quantity"
    assert driver.execute_script(MARKER) == 42


def test_refusal_leaves_focus_where_the_person_moved_it(browser, base_url):
    """Focus that left the fragment while the post was on its way (the
    person moved on) stays where it went."""
    driver = browser
    start(driver, base_url)
    wait_for(driver, "#rt-name").send_keys("Ada")
    # While the post is on its way, focus goes to the page's own name field.
    driver.execute_script("""
        const fetched = window.fetch;
        window.fetch = (url, options) => {
          const reply = fetched(url, options);
          document.querySelector("form.login input[name='name']").focus();
          return reply;
        };
    """)
    driver.find_element(By.CSS_SELECTOR, "#rt-name").send_keys("\n")
    wait_for(driver, "#n-0000refused0 .napkin-error")
    assert posts(driver) == 1
    assert driver.execute_script("return document.activeElement.closest('form.login') !== null;"), \
        f"the refusal took focus from where the person had moved (to #{focused_id(driver)})"
    assert value(driver, "#rt-name") == "Ada"


def test_refusal_as_text_is_a_toast(browser, base_url):
    """A refusal for a fragment that has left the page comes as text."""
    driver = browser
    start(driver, base_url)
    driver.execute_script(
        "window.__refusal = {status: 422, type: 'text/plain; charset=utf-8', body: 'There is no order to cancel.'};")
    wait_for(driver, "#rt-name").send_keys("Ada")
    click(driver, "#rt-order")
    WebDriverWait(driver, WAIT).until(lambda d: toast_texts(d) == ["There is no order to cancel."],
                                      message="the refusal's text was never shown")
    assert driver.execute_script(MARKER) == 42
    assert value(driver, "#rt-name") == "Ada"
    assert not driver.find_elements(By.CSS_SELECTOR, "#n-0000refused0 .napkin-error")
