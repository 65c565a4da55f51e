-- News under scripts/soak.sh: users are X-User-ID values (SOAK_DATA: users = {"soak-1", …}, each
-- given holdings before the load; dates = the demo articles' days, for story groups). Every
-- request is valid:
--
--   20 %  GET  /v1/feed?limit=5…50                    half (feed-cursor) with a next_cursor an earlier page returned
--   17 %  GET  /v1/personalized-feed?limit=5…50       likewise
--   12 %  GET  /v1/feed/story-groups?date=…           a demo day (or today, empty), random limits
--    8 %  GET  /v1/brief/latest
--   10 %  POST /v1/interpret                          pasted text or a URL (read as text, not fetched)
--   33 %  PUT  /v1/preferences                        a focus profile and 0–8 of 40 S&P 500 tickers
--
-- News' only user write is the preferences PUT (interpret is a read), so it is the third of writes.
-- Run by scripts/soak.sh; by hand: SOAK_DATA=<file> wrk … -s scripts/soak/news.lua <url>.

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")
dofile(os.getenv("SOAK_DATA"))

local tickers = {
  "AAPL", "MSFT", "AMZN", "GOOGL", "META", "NVDA", "TSLA", "JPM", "JNJ", "V", "PG", "XOM", "UNH", "HD", "MA", "CVX", "ABBV", "PEP", "KO", "MRK",
  "COST", "WMT", "BAC", "PFE", "TMO", "CSCO", "AVGO", "ACN", "MCD", "ABT", "DIS", "ADBE", "CRM", "NFLX", "CMCSA", "VZ", "INTC", "TXN", "NKE", "ORCL",
}
local profiles = { "focused", "balanced", "broad" }
local texts = {
  "Apple shares rose after strong iPhone sales in China",
  "Nvidia announces a 30 billion dollar acquisition, subject to antitrust review",
  "Exxon cuts its dividend as oil prices slump",
  "JPMorgan lifts its outlook as trading demand grows",
  "https://news.example.com/2026/01/02/microsoft-cloud-revenue-beats-estimates",
  "Regulators open an investigation into Meta's advertising practices; shares fall 4 percent",
}
local cursors = { feed = {}, personalized = {} }

local function keep(list, cursor)
  if #list < 64 then table.insert(list, cursor) else list[math.random(64)] = cursor end
end

local function paged(kind, path, user)
  path = path .. "?limit=" .. math.random(5, 50)
  local sent = kind
  if #cursors[kind] > 0 and math.random(2) == 1 then path, sent = path .. "&cursor=" .. soak.any(cursors[kind]), kind .. "-cursor" end
  return soak.request(sent, "GET", path, { ["X-User-ID"] = user }, nil, kind)
end

local function holdings()
  local picked = {}
  for i = 1, math.random(0, 8) do picked[i] = '"' .. soak.any(tickers) .. '"' end
  return table.concat(picked, ",")
end

function soak.next()
  local user = soak.any(users)
  local headers = { ["X-User-ID"] = user }
  local kind = soak.choose({ { "feed", 20 }, { "personalized", 17 }, { "story-groups", 12 }, { "brief", 8 }, { "interpret", 10 }, { "preferences", 33 } })
  if kind == "feed" then
    return paged("feed", "/v1/feed", user)
  elseif kind == "personalized" then
    return paged("personalized", "/v1/personalized-feed", user)
  elseif kind == "story-groups" then
    local date = soak.any(dates)
    return soak.request("story-groups", "GET", string.format("/v1/feed/story-groups?date=%s&limit_global=%d&limit_per_ticker=%d",
      date, math.random(0, 10), math.random(0, 5)), headers)
  elseif kind == "brief" then
    return soak.request("brief", "GET", "/v1/brief/latest", headers)
  elseif kind == "interpret" then
    return soak.request("interpret", "POST", "/v1/interpret", headers, '{"textOrUrl":"' .. soak.any(texts) .. '"}')
  end
  return soak.request("preferences", "PUT", "/v1/preferences", headers,
    string.format('{"focus_profile":"%s","holdings":[%s]}', soak.any(profiles), holdings()))
end

function soak.answered(kind, note, body)
  if note and cursors[note] then
    local cursor = body:match('"next_cursor":"([0-9.]+)"')
    if cursor then keep(cursors[note], cursor) end
  end
end
