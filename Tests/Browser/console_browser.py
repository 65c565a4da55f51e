"""A browser on the operator console, and the product servers it is pointed at (console_test.py)."""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("CONSOLE_BIN_DIR", os.path.join(ROOT, ".build/debug")))
SHOTS = os.path.abspath(os.environ.get("CONSOLE_SCREENSHOTS", os.path.join(ROOT, ".build/console-screenshots")))
MARKUP = '<script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">'
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check(condition, what):
    if not condition:
        raise AssertionError(what)


class Server:
    """One product's server in demo mode over its own temporary data directory."""

    def __init__(self, product, extra=()):
        self.product, self.extra = product, list(extra)
        self.scratch = tempfile.mkdtemp(prefix=f"console-{product}-")
        # Not there yet: a new data directory is a demo.
        self.directory = os.path.join(self.scratch, "data")
        self.port = free_port()
        self.process = None

    def start(self):
        log = open(os.path.join(self.scratch, "server.log"), "ab")
        command = [os.path.join(BIN, self.product), "serve", "--data-dir", self.directory, "--port", str(self.port)] + self.extra
        self.process = subprocess.Popen(command, stdout=log, stderr=log, cwd=ROOT)
        deadline = time.time() + 600
        while time.time() < deadline:
            check(self.process.poll() is None, f"{self.product} stopped while starting: see {self.scratch}/server.log")
            try:
                with urllib.request.urlopen(self.url("/health"), timeout=5) as reply:
                    if reply.status == 200:
                        return self
            except OSError:
                pass
            time.sleep(0.5)
        raise AssertionError(f"{self.product} was not healthy within 600 s")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=60)

    def remove(self):
        self.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    @property
    def token(self):
        with open(os.path.join(self.directory, "admin-token")) as f:
            return f.read().strip()

    def call(self, method, path, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url(path), data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
        with urllib.request.urlopen(request, timeout=60) as reply:
            text = reply.read().decode()
            return json.loads(text) if text else None


class Console:
    """A browser on one server's console."""

    def __init__(self, driver, server):
        self.driver, self.server = driver, server

    def open(self, path):
        self.driver.get(self.server.url(path))
        return self

    def text(self, selector):
        """The element's text; read again when the page reloaded under the read (the overview
        refreshes itself every 5 s)."""
        for attempt in range(5):
            try:
                return self.driver.find_element(By.CSS_SELECTOR, selector).text
            except WebDriverException:
                if attempt == 4:
                    raise
                time.sleep(0.2)

    def lags(self):
        cells = self.driver.find_elements(By.CSS_SELECTOR, "#projections .lag")
        return [int(cell.text) for cell in cells]

    def has(self, selector):
        return bool(self.driver.find_elements(By.CSS_SELECTOR, selector))

    def heading(self):
        return self.text("h1")

    def no_console_errors(self, where):
        errors = [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(not errors, f"{self.server.product} {where}: console errors {errors}")

    def refused(self, status):
        """After a refusal the test provoked: the browser logs its status, and nothing else."""
        entries = [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(entries and all(e["source"] == "network" and f"status of {status}" in e["message"] for e in entries), f"only the {status}: {entries}")

    def shoot(self, name):
        """The page as it is, at both widths, then back at the desktop's."""
        os.makedirs(SHOTS, exist_ok=True)
        for size, (width, height) in SIZES.items():
            self.driver.set_window_size(width, height)
            self.driver.save_screenshot(os.path.join(SHOTS, f"{self.server.product}-{name}-{size}.png"))
        self.driver.set_window_size(*SIZES["desktop"])
        self.no_console_errors(name)

    def submit(self, button):
        """Clicks a form's button and waits for the page it leads to."""
        page = self.driver.find_element(By.TAG_NAME, "html").id
        self.driver.find_element(By.CSS_SELECTOR, button).click()
        self.wait_for_page_after(page)

    def wait_for_page_after(self, page):
        """Until the document is another than `page` (an element id of the old one's) and loaded."""
        def arrived(driver):
            try:
                return driver.find_element(By.TAG_NAME, "html").id != page and driver.find_element(By.TAG_NAME, "main")
            except WebDriverException:
                return False
        WebDriverWait(self.driver, 60).until(arrived)

    def sign_in(self):
        self.open("/admin/console")
        check(self.driver.current_url.endswith("/admin/console/sign-in"), "an unsigned visit goes to the sign-in page")
        self.shoot("sign-in")
        self.driver.find_element(By.ID, "token").send_keys("not-the-token")
        self.submit("#sign-in")
        check("not the operator token" in self.text("[role=alert]"), "a wrong token is refused")
        self.refused(401)
        page = self.driver.find_element(By.TAG_NAME, "html").id
        # Enter in the field sends the form.
        self.driver.find_element(By.ID, "token").send_keys(self.server.token + Keys.ENTER)
        self.wait_for_page_after(page)
        check(self.heading() == "Overview", f"signed in, the overview: {self.heading()}")
        cookie = self.driver.get_cookie("console_session")
        check(cookie and cookie["httpOnly"] and cookie["sameSite"] == "Strict", f"the session cookie: {cookie}")
        self.keyboard_reaches_everything()
        self.open("/admin/console")

    def keyboard_reaches_everything(self):
        """From the top of a page, Tab alone reaches every link and button of the header."""
        self.open("/admin/console/events")
        wanted = {"Overview", "Events", "Users", "Replay", "Backup", "Sign out"}
        reached = set()
        for _ in range(12):
            ActionChains(self.driver).send_keys(Keys.TAB).perform()
            reached.add(self.driver.switch_to.active_element.text.strip())
        check(wanted <= reached, f"Tab reaches {sorted(wanted - reached)} (reached {sorted(reached)})")

    def lag_reaches_zero(self, head_before):
        deadline, head, lags = time.time() + 60, None, []
        while time.time() < deadline:
            self.open("/admin/console")
            try:
                head, lags = int(self.text("#log-head")), self.lags()
            except WebDriverException:
                continue
            if head > head_before and lags and all(lag == 0 for lag in lags):
                self.shoot("overview")
                return head
            time.sleep(0.5)
        raise AssertionError(f"the overview's lag did not reach 0 (head {head}, lags {lags})")

    def event_and_stream(self):
        """The newest event, its stream, and the first stream on the events page with two events,
        stepped one event back."""
        self.open("/admin/console/events")
        self.shoot("events")
        rows = self.driver.find_elements(By.CSS_SELECTOR, "table.events tbody tr")
        check(rows, "the events page lists events")
        streams = [row.find_elements(By.TAG_NAME, "a")[1].text for row in rows]
        rows[0].find_element(By.TAG_NAME, "a").click()
        check(self.heading().startswith("Event "), "an event's page")
        check(self.has("#payload"), "the event's payload")
        self.shoot("event")
        self.submit("#stream-link")
        check(self.heading().startswith("Stream "), "the event's stream")
        repeated = next((s for s in streams if streams.count(s) > 1), None)
        check(repeated, f"a stream with two events among {streams}")
        self.open("/admin/console/stream?id=" + urllib.request.quote(repeated, safe=""))
        at = int(self.text("#at"))
        self.submit("#step-back")
        back = int(self.text("#at"))
        check(back < at, f"one event back: {back} before {at}")
        self.shoot("stream")

    def replay(self, expect_progress):
        self.open("/admin/console/replay")
        self.submit("#start-replay")
        saw_progress = False
        deadline = time.time() + 300
        while time.time() < deadline:
            if self.has("#progress"):
                saw_progress = True
                self.shoot("replay-running")
            if self.has("#swapped"):
                break
            time.sleep(0.3)
            self.driver.refresh()
        check(self.has("#swapped"), "the replay reached its swap")
        check(saw_progress or not expect_progress, "the replay's progress bar was shown while it ran")
        self.shoot("replay")

    def newest_actor(self, event_type):
        """The user who caused the newest event of `event_type`, from the events page."""
        self.open(f"/admin/console/events?type={event_type}")
        return int(self.driver.find_element(By.CSS_SELECTOR, "table.events tbody tr td:last-child a").text)

    def erase(self, user_id, secret):
        """Erases the user, then finds none of their events' pages showing `secret`."""
        self.open(f"/admin/console/users?id={user_id}")
        self.shoot("user")
        links = [a.get_attribute("href") for a in self.driver.find_elements(By.CSS_SELECTOR, "table.events tbody tr td:first-child a")]
        self.driver.find_element(By.ID, "confirm").send_keys(str(user_id + 1))
        self.submit("#erase")
        check("type their id again" in self.text("[role=alert]"), "an erasure needs the id typed again")
        self.refused(400)
        self.open(f"/admin/console/users?id={user_id}")
        self.driver.find_element(By.ID, "confirm").send_keys(str(user_id))
        self.submit("#erase")
        check(self.has("#erased"), f"the user is erased: {self.driver.find_element(By.TAG_NAME, 'main').text}")
        self.open(f"/admin/console/users?id={user_id}")
        check("erased" in self.text("#user-summary"), "their history says erased")
        for link in links:
            self.driver.get(link)
            check(secret not in self.driver.page_source, f"{link} shows {secret}")

    def markup_is_text(self, query, needle):
        """An event on the events page for `query` holds `needle` with MARKUP in it, shown as text."""
        self.open(f"/admin/console/events?{query}")
        rows = self.driver.find_elements(By.CSS_SELECTOR, "table.events tbody tr td:first-child a")
        for link in [row.get_attribute("href") for row in rows]:
            self.driver.get(link)
            if needle in self.text("#payload"):
                check("<script>" in self.text("#payload"), "the markup is shown as text")
                check(not self.driver.find_elements(By.CSS_SELECTOR, "main script, main img"), "no element made of the title")
                check(self.driver.title != "pwned" and "pwned" not in self.driver.title, "no script ran")
                self.shoot("markup")
                return
        raise AssertionError(f"no event for {query} holds {needle}")

    def sign_out(self):
        self.submit("#sign-out")
        check(self.driver.current_url.endswith("/admin/console/sign-in"), "signed out, the sign-in page")
        self.open("/admin/console/events")
        check(self.driver.current_url.endswith("/admin/console/sign-in"), "signed out, the console is refused")
