"""The web page driven in headless Chromium (Debian's /usr/bin/chromium) with Playwright:
run a job through the form, watch it finish, check the figures and the picture.

Skipped where no browser is installed, unless PUZZLELAB_REQUIRE_BROWSER=1 (CI sets it,
and `make test` installs chromium with apt-get when it is missing)."""

import os
import shutil
from pathlib import Path

import pytest

from puzzlelab.puzzles import REGISTRY

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
REQUIRED = os.environ.get("PUZZLELAB_REQUIRE_BROWSER") == "1"
TESTS = Path(__file__).resolve().parents[1]

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None

if sync_playwright is None or not os.path.exists(CHROMIUM):
    if REQUIRED:
        raise RuntimeError(f"browser tests required but unavailable (playwright: {sync_playwright is not None}, chromium at {CHROMIUM})")
    pytest.skip("no Playwright or no chromium here (make test installs them)", allow_module_level=True)

# Playwright's default of 5 s per expectation is too tight here: on these 2-core VMs even
# loopback HTTP stalls for 1-4 s at times (measured with a bare `python -m http.server`),
# and CI failed once because one catalog fetch outlived it. What is expected is unchanged.
expect.set_options(timeout=30_000)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-quic"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    yield page
    context.close()
    assert not errors, errors


def run_catalog_instance(page, puzzle: str, instance: str, budget: str = "20") -> None:
    page.select_option("#puzzle", puzzle)
    expect(page.locator("#catalog")).to_contain_text(instance)
    page.select_option("#catalog", instance)
    page.fill("#budget", budget)
    page.click("#run")


def picture_is_drawn(page) -> bool:
    return page.eval_on_selector("#picture", "img => img.complete && img.naturalWidth > 0")


def test_toy_job_through_the_page(page):
    run_catalog_instance(page, "toy", "small")
    expect(page.locator("#job-state")).to_have_text("done", timeout=60_000)
    expect(page.locator("#verdict")).to_have_class("ok")
    expect(page.locator("[data-figure=coins]")).to_have_text("2")
    expect(page.locator("[data-figure=status]")).to_have_text("optimal")
    page.wait_for_function("() => document.getElementById('picture').naturalWidth > 0", timeout=30_000)


def test_method_options_bad_input_and_cancel(page):
    page.select_option("#puzzle", "toy")
    page.select_option("#method", "greedy")
    expect(page.locator("#opt-largest_first")).to_be_checked()
    page.fill("#instance-text", "banana")
    page.click("#run")
    expect(page.locator("#form-error")).to_contain_text("422")
    expect(page.locator("#form-error")).to_contain_text("not a catalog name")
    page.select_option("#method", "sleepy")
    page.select_option("#catalog", "small")
    page.fill("#budget", "60")
    page.click("#run")
    expect(page.locator("#job-state")).to_have_text("running", timeout=60_000)
    page.click("#cancel")
    expect(page.locator("#job-state")).to_have_text("cancelled", timeout=30_000)


@pytest.mark.parametrize("name", [n for n in REGISTRY if n != "toy"])
def test_each_puzzle_through_the_page(page, name):
    """One catalog instance of every registered puzzle, solved through the page."""
    puzzle = REGISTRY[name]
    # Compile the puzzle's kernels here first (into numba's on-disk cache, which the
    # service's workers load): in a fresh clone these tests run before the puzzles'
    # own, and a cold compile can eat a 10 s job budget. The job tests the page.
    puzzle.solve(puzzle.catalog_instance(puzzle.tour_instance), budget=max(puzzle.tour_budget, 10))
    run_catalog_instance(page, name, puzzle.tour_instance, budget=str(max(puzzle.tour_budget, 10)))
    expect(page.locator("#job-state")).to_have_text("done", timeout=120_000)
    expect(page.locator("#verdict")).to_have_class("ok")
    value = page.locator(f"[data-figure='{puzzle.value_name}']").inner_text()
    assert value.strip() not in ("", "—")
    page.wait_for_function("() => document.getElementById('picture').naturalWidth > 0", timeout=30_000)


def test_records_page_lists_what_was_solved(page):
    run_catalog_instance(page, "toy", "small")
    expect(page.locator("#job-state")).to_have_text("done", timeout=60_000)
    page.click("#nav-records")
    expect(page.locator("#records-table tbody")).to_contain_text("11:1,5,6,9")
    page.screenshot(path=str(Path(os.environ.get("PUZZLELAB_SCREENSHOTS", "/tmp")) / "puzzlelab-records.png"))
