/**
 * rest.nvim's Lua script API (`# @lang=lua` above `< {% … %}` or `> {% … %}`), as Lua run in each
 * fresh Lua state before the script (lua-sandbox.ts): `request.variables.set/get`,
 * `client.global.set/get`, `response` (`body`, `headers` by lower-case name, `status.code`),
 * `vim.json.decode/encode`, `vim.env`, `vim.NIL`, `print`. As rest.nvim's own
 * (`lua/rest-nvim/script/lua.lua`), the script runs in a table of its own whose misses fall back
 * to the globals. Everything reaching reqflow goes through one bridge function, kept here in a
 * local (the script never sees it); its answers are strings, numbers, booleans or nil.
 */

/** What the bridge answers for a failed call: the message after it (a NUL would end a string on its way into Lua). */
export const LUA_BRIDGE_ERROR = '\u0001error:';
/** Raised by the instruction hook once the time limit has passed. */
export const LUA_TIMEOUT = 'reqflow:timeout';

export const RESTNVIM_API = String.raw`
local bridge, dataText = __reqflow_bridge, __reqflow_data
__reqflow_bridge, __reqflow_data = nil, nil
local load, type, tostring, tonumber, pairs, error, pcall, select, setmetatable, next =
  load, type, tostring, tonumber, pairs, error, pcall, select, setmetatable, next
local concat, sort = table.concat, table.sort
local format, byte, gsub, sub, match = string.format, string.byte, string.gsub, string.sub, string.match
local huge, mtype = math.huge, math.type

local NIL = setmetatable({}, { __tostring = function() return "vim.NIL" end, __metatable = false })

-- A failed call is an error at the script's line (level 3: call <- API function <- script).
local function call(op, ...)
  local result = bridge(op, ...)
  if type(result) == "string" and sub(result, 1, 7) == "${LUA_BRIDGE_ERROR}" then error(sub(result, 8), 3) end
  return result
end

-- rest.nvim's variables are text: numbers and booleans are written as such, anything else refused.
local function text(value, what)
  local kind = type(value)
  if kind == "string" then return value end
  if kind == "number" or kind == "boolean" then return tostring(value) end
  error(what .. ": the value must be text, not a " .. kind, 3)
end

-- Constructor text made by reqflow from JSON, loaded with nothing in reach but NIL.
local function literal(lua, what)
  local chunk, problem = load("return " .. lua, "=" .. what, "t", { NIL = NIL })
  if not chunk then error(what .. ": " .. tostring(problem), 3) end
  return chunk()
end

local data = literal(dataText, "reqflow:data")

local ESCAPES = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
local function encodeString(value)
  return '"' .. gsub(value, '[%c"\\]', function(c) return ESCAPES[c] or format("\\u%04x", byte(c)) end) .. '"'
end

local encode
local function encodeTable(value, depth)
  local count, keys = 0, {}
  for key in pairs(value) do
    count = count + 1
    keys[count] = key
  end
  local items = {}
  if count > 0 and #value == count then
    for i = 1, count do items[i] = encode(value[i], depth + 1) end
    return "[" .. concat(items, ",") .. "]"
  end
  for i = 1, count do
    local key = keys[i]
    if type(key) ~= "string" and type(key) ~= "number" then error("cannot encode a table key of type " .. type(key), 0) end
    keys[i] = tostring(key)
  end
  sort(keys) -- a stable text: Lua's own order is the table's
  for i = 1, count do
    local key = keys[i]
    local item = value[key]
    if item == nil then item = value[tonumber(key)] end
    items[i] = encodeString(key) .. ":" .. encode(item, depth + 1)
  end
  return "{" .. concat(items, ",") .. "}"
end

encode = function(value, depth)
  if depth > 200 then error("nested too deeply (a table that contains itself?)", 0) end
  local kind = type(value)
  if value == nil or value == NIL then return "null" end
  if kind == "boolean" then return tostring(value) end
  if kind == "number" then
    if value ~= value or value == huge or value == -huge then error("cannot encode " .. tostring(value), 0) end
    return mtype(value) == "integer" and format("%d", value) or format("%.14g", value)
  end
  if kind == "string" then return encodeString(value) end
  if kind == "table" then return encodeTable(value, depth) end
  error("cannot encode a " .. kind, 0)
end

local json = {
  decode = function(value)
    if type(value) ~= "string" then error("vim.json.decode: expected text, got a " .. type(value), 2) end
    return literal(call("json.lua", value), "vim.json.decode")
  end,
  encode = function(value)
    local ok, result = pcall(encode, value, 0)
    if not ok then error("vim.json.encode: " .. tostring(result), 2) end
    return result
  end,
}

-- What rest.nvim reads with vim.env: here the run's globals, then the selected environment,
-- then the variables the script names (file variables, .env values), never the process's.
local function readVariable(name)
  local value = call("global.get", name)
  if value == nil then value = call("environment.get", name) end
  if value == nil then value = (data.variables or {})[name] end
  return value
end

local function unavailable(name)
  return function() error(name .. " is not available in request-file scripts (no programs, files or editor)", 2) end
end

-- jq's identity filter (jq . or jq), the one program rest.nvim's scripts run on a body: to format it.
local function isJqIdentity(command)
  if type(command) == "string" then return match(command, "^%s*jq%s*%.?%s*$") ~= nil end
  if type(command) ~= "table" or command[1] ~= "jq" then return false end
  return command[2] == nil or (command[2] == "." and command[3] == nil)
end

local fn = setmetatable({
  system = function(command, input)
    if isJqIdentity(command) and type(input) == "string" then return call("json.pretty", input) end
    error("vim.fn.system runs a program: not available in request-file scripts (only jq . is, as reqflow's JSON formatting)", 2)
  end,
}, { __index = function(_, name) return unavailable("vim.fn." .. tostring(name)) end })

local function trim(value) return (gsub(value, "^%s+", ""):gsub("%s+$", "")) end

local function log(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  call("log", concat(parts, "\t"))
end

vim = {
  NIL = NIL,
  json = json,
  fn = fn,
  env = setmetatable({}, {
    __index = function(_, name) return readVariable(tostring(name)) end,
    -- rest.nvim's client.global.set is this assignment: a variable of every later request.
    __newindex = function(_, name, value) call("global.set", tostring(name), value ~= nil and text(value, "vim.env") or nil) end,
  }),
  log = { levels = { TRACE = 0, DEBUG = 1, INFO = 2, WARN = 3, ERROR = 4, OFF = 5 } },
  notify = function(message) log(message) end,
  print = log,
  inspect = function(value)
    local ok, result = pcall(encode, value, 0)
    return ok and result or tostring(value)
  end,
  startswith = function(s, prefix) return sub(s, 1, #prefix) == prefix end,
  endswith = function(s, suffix) return suffix == "" or sub(s, -#suffix) == suffix end,
  trim = trim,
}
print = log

local variables = {
  set = function(key, value) call("variables.set", text(key, "request.variables.set"), text(value, "request.variables.set")) end,
  -- rest.nvim answers "" for a name nothing defines.
  get = function(key)
    local name = text(key, "request.variables.get")
    local value = call("variables.get", name)
    if value == nil then value = (data.variables or {})[name] end
    return value or ""
  end,
}

local client = {
  global = {
    set = function(key, value) call("global.set", text(key, "client.global.set"), text(value, "client.global.set")) end,
    get = function(key) return readVariable(text(key, "client.global.get")) or "" end,
  },
}

local function responseOf(res)
  if res == NIL or res == nil then return nil end
  local headers = {}
  for _, pair in ipairs(res.headers) do
    local name = string.lower(pair[1])
    headers[name] = headers[name] or {}
    headers[name][#headers[name] + 1] = pair[2]
  end
  return { body = res.body, headers = headers, status = { code = res.status, text = res.statusText or "", version = "" }, statistics = {} }
end

local request = { variables = variables }
local response = responseOf(data.response)

-- Runs the script held in __reqflow_code: nil when it ended well, else the error's text.
function __reqflow_run()
  local code = __reqflow_code
  __reqflow_code = nil
  local env = setmetatable({ request = request, client = client, response = response }, { __index = _G })
  local chunk, problem = load(code, "=script", "t", env)
  if not chunk then return problem end
  local ok, message = xpcall(chunk, function(e)
    if type(e) == "string" then return e end
    return "threw a " .. type(e) .. " value, not a message"
  end)
  if not ok then return message end
  return nil
end
`;

/**
 * The names a Lua script may read with `request.variables.get("name")` or `vim.env.name`: its
 * quoted words and the words after `vim.env.`, resolved before it runs (the bridge is
 * synchronous, the run's variables are not).
 */
export function luaVariableNames(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(/["']([A-Za-z_][\w.-]*)["']|vim\.env\.([A-Za-z_]\w*)/g)) names.add((match[1] ?? match[2]) as string);
  return [...names];
}
