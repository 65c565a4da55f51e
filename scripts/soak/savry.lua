-- Savry under scripts/soak.sh: cooks signed in with dev sign-in, each with recipes of its own made
-- before the load (SOAK_DATA: users = {{token=, id=, recipes={…}}, …}). Every request is valid:
--
--   37 %  GET    /api/app/recipes?limit=5…20            half of them (list-cursor) with a cursor an earlier page returned
--   30 %  GET    /api/app/recipes/{id}                  one of the cook's own recipes
--   13 %  PATCH  /api/app/recipes/{id}                  one of the cook's own recipes, a few fields
--   10 %  POST   /api/app/recipes                       a new recipe (201)
--   10 %  DELETE /api/app/recipes/{id}                  a recipe this thread created earlier, with its
--                                                       cook's token (a create while there is none)
--
-- Creates and deletes balance, so the cooks' recipe counts (and the lists) stay about the same.
-- Run by scripts/soak.sh; by hand: SOAK_DATA=<file> wrk … -s scripts/soak/savry.lua <url>.

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")
dofile(os.getenv("SOAK_DATA"))

local cursors = {}      -- nextCursor values earlier pages returned (any cook may list before them)
local deletable = {}    -- {id=, owner=} of recipes this thread created
local byId = {}         -- user id -> user
local made = 0

local ingredients = {
  '{"name":"flour","quantity":"250","unit":"g"}', '{"name":"egg","quantity":"2"}',
  '{"name":"milk","quantity":"300","unit":"ml","aisle":"dairy"}', '{"name":"butter","quantity":"1","unit":"tbsp","price":1.5}',
  '{"name":"salt"}', '{"name":"tomato","quantity":"4","store":"market","onSale":true}',
}
local cuisines = { "French", "Italian", "Japanese", "Mexican", "Indian", "Lebanese" }
local tags = { '"vegetarian"', '"quick"', '"gluten-free"', '"spicy"', '"budget"' }

function soak.init()
  for _, user in ipairs(users) do byId[user.id] = user end
end

local function some(list, most)
  local picked = {}
  for i = 1, math.random(most) do picked[i] = soak.any(list) end
  return table.concat(picked, ",")
end

local function recipeBody(name)
  return string.format(
    '{"name":"%s","description":"Made under load","ingredients":[%s],"instructions":["Mix everything","Cook %d minutes"],' ..
    '"prepTime":%d,"cookTime":%d,"servings":%d,"cuisine":"%s","dietaryTags":[%s],"estimatedCost":%d.5}',
    name, some(ingredients, 4), math.random(60), math.random(30), math.random(120), math.random(8), soak.any(cuisines),
    some(tags, 2), math.random(40))
end

local patches = {
  function() return string.format('{"servings":%d}', math.random(12)) end,
  function() return string.format('{"name":"Soak dish %d","cookTime":%d}', math.random(1000), math.random(90)) end,
  function() return string.format('{"description":"Edited %d times","dietaryTags":[%s]}', math.random(100), some(tags, 3)) end,
  function() return string.format('{"ingredients":[%s],"calories":%d}', some(ingredients, 5), math.random(900)) end,
  function() return '{"difficulty":null,"imageUrl":"https://example.com/dish.jpg"}' end,
}

local function auth(user)
  return { Authorization = "Bearer " .. user.token }
end

function soak.next()
  local user = soak.any(users)
  local kind = soak.choose({ { "list", 37 }, { "get", 30 }, { "patch", 13 }, { "create", 10 }, { "delete", 10 } })
  if kind == "list" then
    local path, page = "/api/app/recipes?limit=" .. math.random(5, 20), "list"
    if #cursors > 0 and math.random(2) == 1 then path, page = path .. "&cursor=" .. soak.any(cursors), "list-cursor" end
    return soak.request(page, "GET", path, auth(user))
  elseif kind == "get" then
    return soak.request("get", "GET", "/api/app/recipes/" .. soak.any(user.recipes), auth(user))
  elseif kind == "patch" then
    return soak.request("patch", "PATCH", "/api/app/recipes/" .. soak.any(user.recipes), auth(user), soak.any(patches)())
  elseif kind == "create" or #deletable == 0 then
    made = made + 1
    return soak.request("create", "POST", "/api/app/recipes", auth(user), recipeBody("Soak recipe " .. thread_number .. "-" .. made), user.id)
  end
  local recipe = table.remove(deletable, 1)
  return soak.request("delete", "DELETE", "/api/app/recipes/" .. recipe.id, auth(byId[recipe.owner]))
end

function soak.answered(kind, note, body)
  if kind == "create" then
    local id = body:match('"recipeId":"([0-9a-z-]+)"')
    if id and #deletable < 10000 then table.insert(deletable, { id = id, owner = note }) end
  elseif kind == "list" or kind == "list-cursor" then
    local cursor = body:match('"nextCursor":"([^"]+)"')
    if cursor then
      if #cursors < 64 then table.insert(cursors, cursor) else cursors[math.random(64)] = cursor end
    end
  end
end
