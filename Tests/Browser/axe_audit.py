"""Accessibility audits with axe-core, run inside the page through WebDriver.

axe's script comes from PyPI's axe-playwright-python, which ships it; only
the script file is used (scripts/setup --browser installs the package
without its Playwright dependency). Any violation, whatever its impact,
fails the audit.
"""
import functools
import importlib.util
import pathlib


@functools.cache
def axe_source():
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("axe-playwright-python is not installed (scripts/setup --browser)")
    return (pathlib.Path(spec.submodule_search_locations[0]) / "axe.min.js").read_text()


def violations(driver):
    """axe's violations on the page the driver shows now."""
    driver.execute_script(axe_source())
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then(result => done(result.violations))"
        ".catch(error => done([{id: 'axe-error', help: String(error), nodes: []}]));")


def describe(found):
    """One line a violation, with the markup of its first few nodes."""
    lines = []
    for violation in found:
        nodes = "; ".join(node.get("html", "")[:120] for node in violation.get("nodes", [])[:3])
        lines.append(f"{violation['id']} ({violation.get('impact')}): {violation.get('help')} at {nodes}")
    return "\n".join(lines)


def assert_accessible(driver, page):
    found = violations(driver)
    assert not found, f"axe found violations on {page}:\n{describe(found)}"
