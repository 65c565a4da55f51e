-- The part of scripts/soak/<product>.lua every product shares; the product's file loads it first
-- (dofile) and then defines soak.next() (and, if it reads answers, soak.answered()).
--
-- As `nuvie-bench soak`'s script (Sources/Benchmarks/NuvieBench/SoakLoad.swift): every request is
-- valid by design, so every non-2xx answer is an error. Each wrk thread counts the statuses it got
-- in response(); done() adds them up and writes `soak-…` lines that scripts/soak.sh reads.
--
-- Beyond nuvie-bench's: every request carries an X-Request-Id (`soak-<thread>-<n>`) that the
-- servers echo, so an answer is matched to its request; the first 20 non-2xx answers of each
-- thread are reported with their request (method, path, body) and the start of their body. The
-- requests are also counted by kind, to show the mix that was really sent, and timed by kind
-- (monotonic clock through LuaJIT's ffi): answers, mean, ~p99 (a power-of-two bucket's upper
-- bound) and max, and how many got no answer (wrk's timeouts, and those in flight at the end).
--
-- Environment (set by scripts/soak.sh): SOAK_DATA, a Lua file of the run's data (tokens, ids)
-- that the product's script reads with dofile; SOAK_ONLY, one kind of request instead of the mix.

soak = {}
statuses = {}
kinds = {}
failures = {}
-- Per kind (flat tables only: wrk's thread:get crashes on a table inside a table): answers, their
-- total and largest time in ms, requests without an answer yet, and answers by time bucket under
-- "<kind> <b>": bucket b holds the answers in (2^(b-1), 2^b] ms.
answered, answeredMs, slowestMs, unanswered, buckets = {}, {}, {}, {}, {}
local pending = {}    -- request id -> {kind=, text=, note=, sent=}: sent, not yet answered
local threads = {}
local counter = 0
local sent = 0

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } soak_timespec;
  int clock_gettime(int clock, soak_timespec *now);
]]
local clock = ffi.new("soak_timespec")
local function now() -- seconds, CLOCK_MONOTONIC
  ffi.C.clock_gettime(1, clock)
  return tonumber(clock.tv_sec) + tonumber(clock.tv_nsec) / 1e9
end

function setup(thread)
  counter = counter + 1
  thread:set("thread_number", counter)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
  kinds = {}
  failures = {}
  answered, answeredMs, slowestMs, unanswered, buckets = {}, {}, {}, {}, {}
  math.randomseed(os.time() + thread_number * 7919)
  if soak.init then soak.init() end
end

-- One element of a list, at random.
function soak.any(list)
  return list[math.random(#list)]
end

-- SOAK_ONLY=<kind> (scripts/soak.sh --only): every request of that one kind, for its own figures.
soak.only = os.getenv("SOAK_ONLY")
if soak.only == "" then soak.only = nil end

-- The kind of the next request: SOAK_ONLY's, else one of `mix` ({kind, percent}, … adding up to 100)
-- at random by its share.
function soak.choose(mix)
  if soak.only then
    for _, entry in ipairs(mix) do
      if entry[1] == soak.only then return soak.only end
    end
    local names = {}
    for _, entry in ipairs(mix) do table.insert(names, entry[1]) end
    error("SOAK_ONLY=" .. soak.only .. " is not one of " .. table.concat(names, ", "))
  end
  local pick, total = math.random() * 100, 0
  for _, entry in ipairs(mix) do
    total = total + entry[2]
    if pick <= total then return entry[1] end
  end
  return mix[#mix][1]
end

-- A request of kind `kind` (a word: list, get, create, …), remembered until its answer arrives.
-- `body` (a JSON string) or nil; `note` is handed back to soak.answered with the answer.
function soak.request(kind, method, path, headers, body, note)
  sent = sent + 1
  local id = "soak-" .. thread_number .. "-" .. sent
  headers["X-Request-Id"] = id
  if body then headers["Content-Type"] = "application/json" end
  pending[id] = { kind = kind, text = method .. " " .. path .. (body and (" " .. body) or ""), note = note, sent = now() }
  kinds[kind] = (kinds[kind] or 0) + 1
  unanswered[kind] = (unanswered[kind] or 0) + 1
  return wrk.format(method, path, headers, body)
end

function request()
  return soak.next()
end

local function requestId(headers)
  local id = headers["X-Request-Id"] or headers["x-request-id"]
  if id then return id end
  for name, value in pairs(headers) do
    if string.lower(name) == "x-request-id" then return value end
  end
  return nil
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  local id = requestId(headers)
  local sentRequest = id and pending[id]
  if id then pending[id] = nil end
  if sentRequest then
    local kind, ms = sentRequest.kind, (now() - sentRequest.sent) * 1000
    local bucket = 0
    while bucket < 24 and 2 ^ bucket < ms do bucket = bucket + 1 end
    unanswered[kind] = unanswered[kind] - 1
    answered[kind] = (answered[kind] or 0) + 1
    answeredMs[kind] = (answeredMs[kind] or 0) + ms
    slowestMs[kind] = math.max(slowestMs[kind] or 0, ms)
    buckets[kind .. " " .. bucket] = (buckets[kind .. " " .. bucket] or 0) + 1
  end
  if status < 200 or status > 299 then
    if #failures < 20 then
      local what = sentRequest and sentRequest.text or ("(unmatched, X-Request-Id " .. tostring(id) .. ")")
      local answer = string.gsub(string.sub(body or "", 1, 400), "%s+", " ")
      table.insert(failures, status .. " " .. (id or "-") .. " " .. what .. " -> " .. answer)
    end
  elseif sentRequest and soak.answered then
    soak.answered(sentRequest.kind, sentRequest.note, body)
  end
end

function done(summary, latency, requests)
  local sums = {}
  for _, name in ipairs({ "statuses", "kinds", "answered", "answeredMs", "unanswered", "buckets" }) do sums[name] = {} end
  local slowest, failed = {}, {}
  for _, thread in ipairs(threads) do
    for name, sum in pairs(sums) do
      for key, count in pairs(thread:get(name)) do sum[key] = (sum[key] or 0) + count end
    end
    for kind, ms in pairs(thread:get("slowestMs")) do slowest[kind] = math.max(slowest[kind] or 0, ms) end
    for _, line in ipairs(thread:get("failures")) do table.insert(failed, line) end
  end
  for status, count in pairs(sums.statuses) do io.write(string.format("soak-status %d %d\n", status, count)) end
  for kind, count in pairs(sums.kinds) do
    local n, p99, seen = sums.answered[kind] or 0, 0, 0
    for bucket = 0, 24 do
      seen = seen + (sums.buckets[kind .. " " .. bucket] or 0)
      if n > 0 and seen >= 0.99 * n then p99 = 2 ^ bucket; break end
    end
    io.write(string.format("soak-kind %s %d answered %d mean %.1f p99<= %d max %.1f unanswered %d\n", kind, count, n,
      n > 0 and sums.answeredMs[kind] / n or 0, p99, slowest[kind] or 0, sums.unanswered[kind] or 0))
  end
  for _, line in ipairs(failed) do io.write("soak-failure " .. line .. "\n") end
  io.write(string.format("soak-errors connect %d read %d write %d timeout %d status %d\n",
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, summary.errors.status))
  io.write(string.format("soak-latency p50 %.2f p90 %.2f p99 %.2f max %.2f\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("soak-requests %d\n", summary.requests))
end
