"""The web page driven in headless Chromium (Debian's /usr/bin/chromium) with Playwright:
run a job through the form, watch it finish, check the figures and the picture.

Skipped where no browser is installed, unless PUZZLELAB_REQUIRE_BROWSER=1 (CI sets it,
and `make test` installs chromium with apt-get when it is missing)."""

import os
import re
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
    """The page, served under its strict Content-Security-Policy: every test fails on
    a script error or on anything the policy blocked (an inline script, style or
    handler, a resource from elsewhere), which Chromium reports on the console."""
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda message: errors.append(message.text) if "Content Security Policy" in message.text else None)
    response = page.goto(server + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
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
    page.click("#stored summary")  # the store's plain table, folded under the dashboards
    expect(page.locator("#records-table tbody")).to_contain_text("11:1,5,6,9")
    page.screenshot(path=str(Path(os.environ.get("PUZZLELAB_SCREENSHOTS", "/tmp")) / "puzzlelab-records.png"))


# ------------------------------------------------------------ records, previews, answers
SCREENS = Path(os.environ.get("PUZZLELAB_SCREENSHOTS", "/tmp"))


def dashboard_data(page, server, name):
    response = page.request.get(f"{server}/api/records/{name}/dashboard")
    assert response.ok, response.text()
    return response.json()


def open_dashboard(page, server, name):
    page.goto(f"{server}/#records/{name}")
    expect(page.locator("#dashboard")).to_have_attribute("data-state", "ready")
    expect(page.locator("#dashboard")).to_have_attribute("data-puzzle", name)


def marks(page, kind=None):
    selector = "#dashboard svg .mark" + (f"[data-kind={kind}]" if kind else "")
    return page.locator(selector).count()


def test_records_dashboards_draw_one_mark_per_figure(page, server):
    """Each dashboard's plots: a non-empty SVG with one mark per published figure (the
    reference tables) and one per answer of ours (the API's data)."""
    from puzzlelab.puzzles.coins.reference import published_lengths
    from puzzlelab.puzzles.hexagon.reference import level_table
    from puzzlelab.puzzles.hexagon.reference import published_table as hexagon_table
    from puzzlelab.puzzles.matchsticks.reference import published_table as matchsticks_table
    from puzzlelab.puzzles.tiling.a219158 import computed_rows
    from puzzlelab.puzzles.tiling.reference import a219158_table

    open_dashboard(page, server, "matchsticks")
    a294249 = [n for n in matchsticks_table() if n > 0]
    data = dashboard_data(page, server, "matchsticks")
    rows = [r for r in data["rows"] if r["ours"] and r["n"] > 0]
    assert marks(page, "published") == marks(page, "gap") == len(a294249) == 63
    assert marks(page, "record") == sum(1 for r in rows if r["ours"]["value"] < r["published"]) == 2  # the new bounds
    assert marks(page, "ours") == sum(1 for r in rows if r["ours"]["value"] > r["published"])
    assert page.locator("#dashboard table tbody tr").count() == len(matchsticks_table())

    open_dashboard(page, server, "hexagon")
    data = dashboard_data(page, server, "hexagon")
    assert marks(page, "published") == 2 * len(hexagon_table())  # penalty plot and score plot
    assert marks(page, "level") == 3 * len(level_table())  # the write-up's lowest penalties through levels 1, 2 and 3
    assert marks(page, "ours") == 2 * sum(1 for r in data["rows"] if r["ours"])

    open_dashboard(page, server, "coins")
    data = dashboard_data(page, server, "coins")
    seen = 0
    for font in data["fonts"]:  # one font's map at a time
        page.click(f"#dashboard .font-switch button[data-font={font['font']}]")
        expect(page.locator("#dashboard .coins-map")).to_have_attribute("data-font", font["font"])
        cells = lambda kind=None: page.locator("#dashboard .coins-map svg .mark" + (f"[data-kind={kind}]" if kind else "")).count()  # noqa: E731
        assert cells() == 37 * 36  # every cell, the diagonal left out
        ours = sum(v is not None for row in font["ours"] for v in row)
        published_only = sum(1 for i, row in enumerate(font["published"]) for j, v in enumerate(row)
                             if v is not None and font["ours"][i][j] is None)
        assert cells("solved") + cells("found") == ours
        assert cells("published") == published_only
        seen += published_only + sum(1 for i, row in enumerate(font["published"]) for j, v in enumerate(row)
                                     if v is not None and font["ours"][i][j] is not None)
    assert seen == len(published_lengths())
    # the histograms: per font, the bars of ours add up to its solved puzzles
    for k, font in enumerate(data["fonts"]):
        bars = page.locator("#dashboard .plots svg").nth(k).locator(".mark[data-kind=ours]")
        assert sum(int(v) for v in bars.evaluate_all("bs => bs.map(b => b.dataset.value)")) == sum(
            v is not None for row in font["ours"] for v in row)

    open_dashboard(page, server, "tiling")
    computed = [side for side in computed_rows() if side[0] <= side[1]]
    assert marks(page) == len(a219158_table()) + len(computed) == 555 + len(computed)
    assert marks(page, "ours") == len(computed)  # the rows m = 16..20 computed here, past the published table
    assert page.locator("#dashboard table").first.locator("tbody tr").count() == 10  # the contest puzzles

    open_dashboard(page, server, "macmahon")
    assert marks(page, "published") == 2  # 4x6 and the same board turned
    page.screenshot(path=str(SCREENS / "puzzlelab-records-macmahon.png"), full_page=True)


def row_of(page, table: str, first_cell: str):
    """The row of a dashboard table whose first cell links `first_cell`."""
    cell = page.locator("td:first-child a", has_text=re.compile(f"^{re.escape(first_cell)}$"))
    return page.locator(f"#dashboard table.{table} tbody tr").filter(has=cell)


def test_the_page_shows_what_the_package_ships(page, server):
    """On the page as on the API: n = 36 proven by us (629), n = 54 ours 1153 beating the
    published value, first at a glance; hexagon n = 11 proven (902); the A219158 rows
    m = 16..20; 4x6's 106,624 ours; and a result's provenance one click away."""
    open_dashboard(page, server, "matchsticks")
    first = page.locator("#dashboard .highlights li").first
    expect(first).to_have_attribute("data-versus", "beats")
    expect(first).to_contain_text("a(54) <= 1,153")
    n36 = row_of(page, "matchsticks", "36")
    expect(n36.locator(".ours")).to_have_attribute("data-value", "629")
    expect(n36.locator(".ours")).to_contain_text("629 ✓")
    expect(n36.locator(".check-verified")).to_contain_text("proof")
    n54 = row_of(page, "matchsticks", "54")
    expect(n54.locator(".ours")).to_have_attribute("data-value", "1153")
    expect(n54.locator(".versus")).to_have_text("beats")
    n36.locator("button.how").click()
    box = page.locator("#dashboard .provenance")
    expect(box).to_be_visible()
    expect(box).to_contain_text("full --count-solutions")
    expect(box).to_contain_text("commit")
    page.screenshot(path=str(SCREENS / "puzzlelab-records-matchsticks.png"), full_page=True)

    open_dashboard(page, server, "hexagon")
    n11 = row_of(page, "hexagon", "11")
    expect(n11.locator(".ours")).to_contain_text("902 ✓")
    expect(n11.locator(".check-recorded")).to_contain_text("proof")

    open_dashboard(page, server, "tiling")
    for m in range(16, 21):
        assert page.locator(f"#dashboard .tiling-map .mark[data-kind=ours][data-row='{m - 1}']").count() > 0

    open_dashboard(page, server, "macmahon")
    expect(row_of(page, "macmahon", "4x6").locator(".ours")).to_contain_text("106,624 ✓")


# Every table cell of a dashboard: its content fits (no cut-off text), it lies inside the
# visible part of what scrolls it sideways, and it does not overlap its left neighbour.
LAYOUT = """() => {
  const problems = [];
  const clipper = (node) => {
    for (let a = node.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return a;
    return document.documentElement;
  };
  for (const t of document.querySelectorAll("#dashboard table")) {
    const box = clipper(t).getBoundingClientRect();
    [...t.rows].forEach((tr, i) => [...tr.cells].forEach((c, j, cells) => {
      const r = c.getBoundingClientRect();
      const where = `${t.className} row ${i} column ${j}`;
      if (c.scrollWidth > c.clientWidth + 1) problems.push(`${where}: content ${c.scrollWidth} px in ${c.clientWidth} px`);
      if (r.right > box.right + 1 || r.left < box.left - 1) problems.push(`${where}: outside the visible ${box.left}..${box.right}`);
      if (j && r.left < cells[j - 1].getBoundingClientRect().right - 1) problems.push(`${where}: overlaps its left neighbour`);
    }));
  }
  return problems;
}"""


@pytest.mark.parametrize("width", [1400, 1000])
def test_no_dashboard_column_is_clipped_or_overlapping(browser, server, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        for name in ("matchsticks", "hexagon", "coins", "tiling", "macmahon"):
            open_dashboard(page, server, name)
            assert page.locator("#dashboard table").count() > 0
            assert page.evaluate(LAYOUT) == [], (name, width)
            page.screenshot(path=str(SCREENS / f"puzzlelab-records-{name}-{width}.png"), full_page=True)
    finally:
        context.close()


def test_preview_draws_the_instance_and_shows_parse_errors_inline(page):
    page.select_option("#puzzle", "hexagon")
    expect(page.locator("#catalog")).to_contain_text("4")
    page.select_option("#catalog", "5")
    expect(page.locator("#preview-key")).to_have_text("5")
    expect(page.locator("#preview-description")).to_contain_text("published 147 (proven)")
    page.wait_for_function("() => { const i = document.getElementById('preview-picture'); return !i.hidden && i.naturalWidth > 0; }")
    page.fill("#instance-text", "(1,1),(1,9,1),(1,1)")
    expect(page.locator("#preview-error")).to_contain_text("422")
    expect(page.locator("#preview-picture")).to_be_hidden()
    page.fill("#instance-text", "(1,2),(2,3,1),(1,2)")
    expect(page.locator("#preview-key")).to_have_text("2")
    expect(page.locator("#preview-error")).to_have_text("")
    expect(page.locator("#preview-picture")).to_be_visible()
    page.select_option("#puzzle", "tiling")
    expect(page.locator("#preview-key")).to_have_text(REGISTRY["tiling"].tour_instance)
    page.fill("#instance-text", "100000x100000")
    expect(page.locator("#preview-error")).to_contain_text("413")
    assert page.locator("#job").is_hidden()  # nothing was run
    page.screenshot(path=str(SCREENS / "puzzlelab-preview-error.png"))


def test_a_coin_answer_steps_through_its_moves_and_exports(page, server):
    """Solve a coin puzzle on the page; its answer is drawn, stepped through and exported
    on the Solve page; its dashboard cell links to the same answer."""
    puzzle = REGISTRY["coins"]
    puzzle.solve(puzzle.load("font5x7:O-C"), budget=60)  # compile the kernels first, as above
    run_catalog_instance(page, "coins", "font5x7:O-C", budget="60")
    expect(page.locator("#job-state")).to_have_text("done", timeout=120_000)
    stepper = page.locator("#job-answer .stepper")
    expect(stepper).to_be_visible()
    moves = int(page.locator("[data-figure=moves]").inner_text())
    expect(stepper.locator(".where")).to_have_text(f"move 0 of {moves}")
    stepper.locator("button.next").click()
    expect(stepper).to_have_attribute("data-step", "1")
    assert stepper.locator("rect.from").count() == 1 and stepper.locator("rect.to").count() == 1
    stepper.locator("button.play").click()
    expect(stepper).to_have_attribute("data-step", str(moves), timeout=30_000)
    stepper.locator("button.first").click()
    expect(stepper).to_have_attribute("data-step", "0")
    formats = page.eval_on_selector_all("#job-answer .exports a", "links => links.map(a => [a.dataset.format, a.href, a.download])")
    assert {f for f, _, _ in formats} >= {"moves", "html", "json", "svg", "text"}
    href = next(h for f, h, _ in formats if f == "moves")
    solution = page.request.get(href).json()
    verdict = puzzle.verify(puzzle.load("font5x7:O-C"), solution)
    assert verdict.ok and verdict.value == moves
    page.screenshot(path=str(SCREENS / "puzzlelab-coin-stepper.png"), full_page=True)

    open_dashboard(page, server, "coins")
    cell = page.locator("#dashboard a[href='#answer/coins/font5x7%3AO-C'] .mark")
    expect(cell).to_have_attribute("data-kind", "solved")
    cell.click()
    expect(page.locator("#answer-view")).to_have_attribute("data-state", "ready")
    expect(page.locator("#answer-figures [data-figure=value]")).to_have_text(str(moves))
    expect(page.locator("#answer-verdict")).to_have_class("ok")
    expect(page.locator("#record-answer .stepper .where")).to_have_text(f"move 0 of {moves}")
    page.wait_for_function("() => document.getElementById('answer-picture').naturalWidth > 0")


def test_a_dashboard_figure_opens_its_instance_on_the_solve_page(page, server):
    open_dashboard(page, server, "tiling")
    link = page.locator("#dashboard a[href='#solve/tiling/17x7'] .mark")
    link.click()
    expect(page.locator("#solve-view")).to_be_visible()
    expect(page.locator("#instance-text")).to_have_value("17x7")
    expect(page.locator("#preview-key")).to_have_text("rect_17x7")
    expect(page.locator("#preview-description")).to_contain_text(f"published {a219158(7, 17)}")


def a219158(m, n):
    from puzzlelab.puzzles.tiling.reference import a219158_table

    return a219158_table()[(m, n)]


def test_a_long_runs_progress_is_charted_live_and_again_later(page, browser, server):
    """The toy's `dp --slow` reports figures every 0.2 s for its 3 s budget: the job
    panel charts each figure (one line per figure, one point per stored report), and
    #job/{id} draws the same chart again in a fresh page from what the service kept."""
    page.select_option("#puzzle", "toy")
    page.select_option("#catalog", "small")
    page.select_option("#method", "dp")
    page.fill("#opt-slow", "0.2")
    page.fill("#budget", "3")
    page.click("#run")
    expect(page.locator("#job-state")).to_have_text("done", timeout=60_000)
    job_id = page.locator("#job-id").inner_text()
    series = page.request.get(f"{server}/api/jobs/{job_id}/progress").json()["points"]
    names = sorted({name for p in series for name in p["figures"]})
    assert names == ["best", "done", "ticks"] and len(series) >= 5
    expect(page.locator("#progress-chart")).to_have_attribute("data-points", str(len(series)))
    lines = page.locator("#progress-chart svg .mark.line")
    assert sorted(lines.evaluate_all("ls => ls.map(l => l.dataset.figure)")) == names
    for name in names:
        count = sum(1 for p in series if name in p["figures"])
        assert page.locator(f"#progress-chart .mark.line[data-figure={name}]").get_attribute("data-points") == str(count)
    page.screenshot(path=str(SCREENS / "puzzlelab-progress-chart.png"))
    again = browser.new_context().new_page()
    again.goto(f"{server}/#job/{job_id}")
    expect(again.locator("#job-state")).to_have_text("done")
    expect(again.locator("#progress-chart")).to_have_attribute("data-points", str(len(series)))
    assert again.locator("#progress-chart svg .mark.line").count() == 3
    again.locator("#recent summary").click()
    expect(again.locator(f"#recent-jobs a[href='#job/{job_id}']")).to_have_count(1)
    again.context.close()
