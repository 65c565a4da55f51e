-- Chat under scripts/soak.sh: accounts signed up before the load, each with sessions started
-- before it (SOAK_DATA: users = {{token=, sessions={…}}, …}). Every request is valid:
--
--   67 %  GET   /api/chat/sessions/            the account's sessions, each with all its messages
--   20 %  POST  /api/send-chat/                into one of the account's prepared sessions (the
--                                              offline responder answers: no model is configured)
--   12 %  PATCH /api/chat/sessions/{id}/       rename one of the account's prepared sessions
--  0.5 %  POST  /api/send-chat/                without session_id: starts a new session
--  0.5 %  POST  /api/chat/sessions/new/        an empty new session
--
-- Chat has no route that reads one session: the list is its only read. The list answers every
-- message of up to 200 sessions, so it grows with the messages sent: the sends go to a fixed set of
-- sessions per account and new sessions are rare, and scripts/soak.sh prints one account's list
-- size before and after the load. Run by scripts/soak.sh; by hand: SOAK_DATA=<file> wrk … -s scripts/soak/chat.lua <url>.

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")
dofile(os.getenv("SOAK_DATA"))

local messages = {
  "What should I cook tonight with rice and beans?",
  "Summarise the plot of Hamlet in three sentences.",
  "How do I reverse a linked list?",
  "Give me a packing list for a weekend of hiking.",
  "Explain compound interest to a ten year old.",
  "Which is heavier, a kilogram of feathers or a kilogram of steel?",
  "Translate good morning into French and German.",
  "Write a haiku about the sea.",
}
local tones = { "PlainClinical", "plain_clinical", "" }
local sent = 0

local function auth(user)
  return { Authorization = "Token " .. user.token }
end

local function send(user, session)
  sent = sent + 1
  local text = soak.any(messages) .. " (" .. thread_number .. "-" .. sent .. ")"
  if session then
    return soak.request("send", "POST", "/api/send-chat/", auth(user), string.format('{"message":"%s","session_id":%d}', text, session))
  end
  return soak.request("send-new", "POST", "/api/send-chat/", auth(user), string.format('{"message":"%s","tone":"%s","lang":"en-US"}', text, soak.any(tones)))
end

function soak.next()
  local user = soak.any(users)
  local kind = soak.choose({ { "list", 67 }, { "send", 20 }, { "rename", 12 }, { "send-new", 0.5 }, { "new-session", 0.5 } })
  if kind == "list" then
    return soak.request("list", "GET", "/api/chat/sessions/", auth(user))
  elseif kind == "send" then
    return send(user, soak.any(user.sessions))
  elseif kind == "rename" then
    return soak.request("rename", "PATCH", "/api/chat/sessions/" .. soak.any(user.sessions) .. "/", auth(user),
      string.format('{"title":"Renamed %d"}', math.random(10000)))
  elseif kind == "send-new" then
    return send(user, nil)
  end
  return soak.request("new-session", "POST", "/api/chat/sessions/new/", auth(user), '{"title":"Soak session","tone":"PlainClinical"}')
end
