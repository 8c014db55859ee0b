-- hpack-stdio adapter for lua-http's HPACK encoder (Debian lua-http, with
-- lua5.3 and lua-cjson), module http.hpack.
--
-- A fresh http.hpack.new(4096) context per "new". Each acknowledged table
-- size is passed in order the way lua-http's own HTTP/2 connection passes
-- a peer's SETTINGS_HEADER_TABLE_SIZE (http/h2_stream.lua):
-- set_max_dynamic_table_size, then encode_max_size, which queues the size
-- update for the next block. The fields go into an http.headers list,
-- a sensitive one appended with never_index = true, its never-index API
-- (any other with never_index = nil, so that the library's own defaults
-- apply, as for its users); encode_headers encodes the list, render_data
-- returns the block and clear_data empties it for the next one.
-- Names and values are Lua strings of octets (binary form).
local cjson = require "cjson"
local hpack = require "http.hpack"
local new_headers = require "http.headers".new
local version = require "http.version"

local name = string.format("%s %s http.hpack", version.name, version.version)

local function octets(s, binary)
	if not binary then
		return s
	end
	if #s % 2 ~= 0 or not s:find("^%x*$") then
		error("not hex: " .. string.format("%q", s), 0)
	end
	return (s:gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end))
end

local function hex(s)
	return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

local function encode(context, req)
	local binary = req.binary == true
	local headers = new_headers()
	for i, field in ipairs(req.headers) do
		local never_index = nil
		if req.sensitive[i] then
			never_index = true
		end
		headers:append(octets(field[1], binary), octets(field[2], binary), never_index)
	end
	for _, size in ipairs(req.table_sizes) do
		context:set_max_dynamic_table_size(size)
		context:encode_max_size(size)
	end
	context:encode_headers(headers)
	local wire = context:render_data()
	context:clear_data()
	return hex(wire)
end

local context
local function answer(line)
	local ok, req = pcall(cjson.decode, line)
	if not ok or type(req) ~= "table" then
		return {error = "request is not JSON: " .. tostring(req)}
	end
	if req.op == "hello" then
		return {name = name, binary = true}
	elseif req.op == "new" then
		context = hpack.new(4096)
		return {}
	elseif req.op == "encode" then
		if context == nil then
			return {error = "encode before new"}
		end
		if type(req.headers) ~= "table" or type(req.sensitive) ~= "table" or type(req.table_sizes) ~= "table" then
			return {error = "encode needs headers, sensitive and table_sizes"}
		end
		local encoded, wire = pcall(encode, context, req)
		if not encoded then
			return {error = tostring(wire)}
		end
		return {wire = wire}
	end
	return {error = "unknown op " .. tostring(req.op)}
end

for line in io.lines() do
	io.write(cjson.encode(answer(line)), "\n")
	io.flush()
end
