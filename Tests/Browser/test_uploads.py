"""Uploads in a real browser: Rib House's announce form with a photo.

With JavaScript, napkin.js posts the form's FormData with XMLHttpRequest and
shows a <progress> in the form while the bytes go; the photo then shows in
another tab's toast. Without JavaScript the browser posts multipart itself
and the page comes back with the toast, or with the form's message for a
file that is not what it claims to be.

Run with Tests/Browser/run, which starts the server and sets RIBHOUSE_URL.
"""
import os
import struct
import zlib

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_ribhouse import LIVE_WAIT, WAIT, click, login, wait_for


def png_file(tmp_path, name="photo.png", padding=1536 * 1024):
    """A real 2 × 2 PNG, padded after its end with `padding` random bytes
    (which browsers ignore), so its upload takes more than one progress event."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\xff\x80\x00" * 2 for _ in range(2))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    path = tmp_path / name
    path.write_bytes(png + os.urandom(padding))
    return str(path)


# Records, on the announce form, every <progress> added and the highest value it showed.
WATCH_PROGRESS = """
const form = document.querySelector('form.announce');
window.__progress = {added: 0, removed: 0, max: 0, label: null};
new MutationObserver((records) => {
  for (const r of records) {
    r.addedNodes.forEach((n) => { if (n.matches && n.matches('progress.napkin-progress')) {
      window.__progress.added++; window.__progress.label = n.getAttribute('aria-label'); } });
    r.removedNodes.forEach((n) => { if (n.matches && n.matches('progress.napkin-progress')) window.__progress.removed++; });
    if (r.type === 'attributes' && r.target.matches('progress.napkin-progress')) {
      window.__progress.max = Math.max(window.__progress.max, Number(r.target.value)); }
  }
}).observe(form, {childList: true, subtree: true, attributes: true, attributeFilter: ['value']});
"""


def announce_with_photo(driver, text, photo):
    wait_for(driver, "form.announce")
    driver.find_element(By.ID, "rh-announce-text").send_keys(text)
    driver.find_element(By.ID, "rh-announce-photo").send_keys(photo)
    click(driver, "form.announce button[type=submit]")


def toast_photo(driver, text, timeout=LIVE_WAIT):
    """The photo of the toast that says `text`, once it has loaded: (src, natural width)."""
    find = """
      const toast = Array.from(document.querySelectorAll('.toast')).find(t => t.textContent.includes(arguments[0]));
      const img = toast && toast.querySelector('img.toast-photo');
      return img && img.complete && img.naturalWidth > 0 ? [img.getAttribute('src'), img.naturalWidth] : null;
    """
    return WebDriverWait(driver, timeout).until(lambda d: d.execute_script(find, text),
                                                message=f"no loaded photo in a toast saying {text!r}")


def test_upload_with_progress_shows_in_another_tab(make_browser, base_url, tmp_path):
    watcher, sender = make_browser(js=True), make_browser(js=True)
    for driver, name in ((watcher, "Watcher"), (sender, "Sender")):
        driver.get(base_url + "/")
        login(driver, name)
    wait_for(sender, "form.announce")
    sender.execute_script(WATCH_PROGRESS)
    announce_with_photo(sender, "Fresh bark on the brisket", png_file(tmp_path))

    src, width = toast_photo(watcher, "Fresh bark on the brisket")
    assert src.startswith("/photos/") and src.endswith(".png"), src
    assert width == 2
    progress = WebDriverWait(sender, WAIT).until(
        lambda d: (lambda p: p if p and p["removed"] >= 1 else None)(d.execute_script("return window.__progress;")),
        message="the upload's <progress> never came and went")
    assert progress["added"] == 1 and progress["label"] == "Upload progress", progress
    assert progress["max"] == 1, f"the progress never reached the end: {progress}"
    # The post was napkin.js's (no page load): the watcher script is still there.
    assert sender.execute_script("return !!window.__progress;")
    assert sender.find_element(By.ID, "rh-announce-text").get_attribute("value") == ""


def test_plain_multipart_post_without_javascript(make_browser, base_url, tmp_path):
    browser = make_browser(js=False)
    browser.get(base_url + "/")
    login(browser, "Plain")
    announce_with_photo(browser, "Ribs at six, no script needed", png_file(tmp_path, padding=0))
    src, width = toast_photo(browser, "Ribs at six, no script needed", timeout=WAIT)
    assert src.startswith("/photos/") and width == 2

    # A page named .png is refused by the form, with its message by the field.
    lie = tmp_path / "lie.png"
    lie.write_bytes(b"<html><script>alert(1)</script></html>")
    announce_with_photo(browser, "Not a photo", str(lie))
    WebDriverWait(browser, WAIT).until(
        lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('form.announce .napkin-field-message'),"
            " m => m.textContent).some(t => t.includes('JPEG or PNG'));"),
        message="no message by the photo field")
    assert not any("Not a photo" in t.text for t in browser.find_elements(By.CSS_SELECTOR, ".toast"))
