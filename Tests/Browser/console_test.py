#!/usr/bin/env python3
"""The operator console in a real browser: headless Chromium from Debian, driven by Selenium.

For each product's binary (CONSOLE_BIN_DIR, default .build/debug), a demo server on a free loopback
port over a new data directory: sign in with the operator token, watch the overview's lag go to 0
after a burst of writes, open an event and its stream, step the stream back in time, start a replay
and follow it to its swap, erase a user and find their personal fields still sealed, sign out and be
refused. A News article and a Nuvie film whose titles hold markup are shown as inert text. No page
logs a console error. Every page is saved at desktop and phone width in CONSOLE_SCREENSHOTS
(default .build/console-screenshots). Exits 1 at the first failed check, saying which.
"""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error

from console_browser import BIN, MARKUP, ROOT, SHOTS, SIZES, Console, Server, check
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def nuvie_dataset():
    """The bundled MovieLens copy with one more film, whose title is markup, rated by user 1."""
    directory = tempfile.mkdtemp(prefix="console-movielens-")
    source = os.path.join(ROOT, "demo/ml-latest-small")
    for name in ["links.csv", "tags.csv", "ratings.csv", "movies.csv"]:
        shutil.copy(os.path.join(source, name), directory)
    with open(os.path.join(directory, "movies.csv"), "a", newline="") as f:
        csv.writer(f).writerow([999001, f"Markup {MARKUP} (2020)", "Drama"])
    with open(os.path.join(directory, "links.csv"), "a", newline="") as f:
        csv.writer(f).writerow([999001, "", ""])
    with open(os.path.join(directory, "ratings.csv"), "a", newline="") as f:
        csv.writer(f).writerow([1, 999001, "4.0", 1700000000])
    return directory


def savry(driver):
    server = Server("savry").start()
    try:
        console = Console(driver, server)
        console.sign_in()
        head = int(console.text("#log-head"))
        token = server.call("POST", "/api/app/auth", {"devUser": "browser"})["token"]
        auth = {"Authorization": f"Bearer {token}"}
        recipe = {"name": "Browser Secret Stew", "ingredients": [{"name": "salt", "quantity": "1", "unit": "tsp"}], "instructions": ["Stir"]}
        recipe_id = server.call("POST", "/api/app/recipes", recipe, auth)["recipeId"]
        for n in range(5):
            server.call("PATCH", f"/api/app/recipes/{recipe_id}", {"name": f"Browser Secret Stew {n}"}, auth)
        try:
            server.call("GET", "/api/app/recipes")
            check(False, "a recipe list without a token is refused")
        except urllib.error.HTTPError as refused:
            check(refused.code == 401, f"a recipe list without a token: {refused.code}")
        console.lag_reaches_zero(head)
        errors = console.text("main")
        check("GET /api/app/recipes 401 1" in errors, f"the overview counts the refused request: {errors}")
        console.event_and_stream()
        console.replay(expect_progress=False)
        user_id = console.newest_actor("recipe-created")
        console.erase(user_id, "Browser Secret Stew")
        console.open("/admin/console/backup")
        console.submit("#back-up")
        check(console.has("#backed-up"), "a backup from the page")
        console.shoot("backup")
        console.sign_out()
    finally:
        server.remove()


def chat(driver):
    server = Server("chat").start()
    try:
        console = Console(driver, server)
        console.sign_in()
        head = int(console.text("#log-head"))
        for n in range(5):
            server.call("POST", "/api/signup/", {"email": f"browser{n}@example.com", "password": "browser password 1"})
        console.lag_reaches_zero(head)
        console.event_and_stream()
        console.replay(expect_progress=False)
        user_id = console.newest_actor("user-registered")
        console.erase(user_id, "browser4@example.com")
        console.sign_out()
    finally:
        server.remove()


def news(driver):
    server = Server("news").start()
    try:
        server.stop()
        article = {"url": "https://example.com/markup", "title": f"Chipmaker {MARKUP} beats estimates", "source": "Example Wire",
                   "published_at": "2025-12-20T10:00:00Z", "description": "<b>claims</b>", "body": "NVIDIA reported revenue."}
        articles = os.path.join(server.scratch, "markup.jsonl")
        with open(articles, "w") as f:
            f.write(json.dumps(article) + "\n")
        subprocess.run([os.path.join(BIN, "news"), "import", articles, "--data-dir", server.directory], check=True, capture_output=True)
        server.start()
        console = Console(driver, server)
        console.sign_in()
        head = int(console.text("#log-head"))
        for holdings in [["NVDA"], ["NVDA", "AAPL"], ["AAPL"]]:
            server.call("PUT", "/v1/preferences", {"focus_profile": "balanced", "holdings": holdings}, {"X-User-ID": "browser"})
        console.lag_reaches_zero(head)
        console.event_and_stream()
        console.markup_is_text("type=article-ingested", "Chipmaker")
        console.replay(expect_progress=False)
        console.sign_out()
    finally:
        server.remove()


def nuvie(driver):
    dataset = nuvie_dataset()
    server = Server("nuvie", ["--demo-dataset", dataset]).start()
    try:
        console = Console(driver, server)
        console.sign_in()
        head = int(console.text("#log-head"))
        token = server.call("POST", "/auth/login", {"provider": "dev", "user_identifier": "movielens-2"})["access_token"]
        for rating in [3, 4, 5, 4]:
            server.call("POST", "/movies/1/rate", {"rating": rating}, {"Authorization": f"Bearer {token}"})
        console.lag_reaches_zero(head)
        console.event_and_stream()
        console.markup_is_text("stream=movie-999001", "Markup")
        console.replay(expect_progress=True)
        console.sign_out()
    finally:
        server.remove()
        shutil.rmtree(dataset, ignore_errors=True)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={SIZES['desktop'][0]},{SIZES['desktop'][1]}"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)


def main():
    products = sys.argv[1:] or ["savry", "chat", "news", "nuvie"]
    runs = {"savry": savry, "chat": chat, "news": news, "nuvie": nuvie}
    driver = browser()
    try:
        for product in products:
            started = time.time()
            runs[product](driver)
            driver.delete_all_cookies()
            print(f"console {product}: passed in {time.time() - started:.0f} s", flush=True)
    except Exception as failure:
        traceback.print_exc()
        print(f"console {product}: FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        driver.quit()
    print(f"screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
