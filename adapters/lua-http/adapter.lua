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
--
-- With the argument decoder (lua5.3 adapter.lua decoder) it is the decoder
-- side: a fresh http.hpack.new(4096) context per "new", as lua-http's
-- connection makes its decoding_context; a block's acknowledged table size
-- through set_max_dynamic_table_size (the bound resize_dynamic_table checks
-- size updates against) whenever it differs from the last; the block through
-- decode_headers, refused when that returns nil or stops short of the end
-- (the check http/h2_stream.lua makes: "incomplete header fragment"). The
-- fields and their never_index flags come from the returned http.headers
-- list; the table from lookup_index(62), lookup_index(63), ... (newest
-- first) until it finds none. lua-http has no header-list limit
-- (max_header_list is not used; hello declares "max-header-list").
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
	local binary = true -- the decoder side answers in hex (docs/STDIO.md)
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

-- The JSON text of a list of [name, value] pairs, built by hand: cjson 2.1.0
-- writes an empty table as {}, and hpack-stdio wants [].
local function json_pairs(list, binary)
	local out = {}
	for i, pair in ipairs(list) do
		local n, v = pair[1], pair[2]
		if binary then
			n, v = hex(n), hex(v)
		end
		out[i] = "[" .. cjson.encode(n) .. "," .. cjson.encode(v) .. "]"
	end
	return "[" .. table.concat(out, ",") .. "]"
end

-- The first index past the static table (RFC 7541 Appendix A).
local FIRST_DYNAMIC = 62

-- Decodes one block; returns the answer's JSON text, or nil and the error.
local function decode(state, req)
	if type(req.wire) ~= "string" or type(req.table_size) ~= "number" or req.table_size < 0 then
		return nil, "decode needs wire (hex) and table_size"
	end
	local hexed, wire = pcall(octets, req.wire, true)
	if not hexed then
		return nil, wire
	end
	if req.table_size ~= state.setting then
		state.context:set_max_dynamic_table_size(req.table_size)
		state.setting = req.table_size
	end
	local headers, pos = state.context:decode_headers(wire)
	if headers == nil then
		-- The library's error with its stack traceback left out.
		return nil, (tostring(pos):gsub("%s*stack traceback:.*$", ""))
	end
	if pos ~= #wire + 1 then
		return nil, "incomplete header fragment (decode_headers stopped at octet " .. tostring(pos) .. " of " .. #wire .. ")"
	end
	local fields, flags = {}, {}
	for n, v, never_index in headers:each() do
		fields[#fields + 1] = {n, v}
		flags[#flags + 1] = never_index and "true" or "false"
	end
	local tbl = {}
	while true do
		local n, v = state.context:lookup_index(FIRST_DYNAMIC + #tbl)
		if n == nil then
			break
		end
		tbl[#tbl + 1] = {n, v}
	end
	local binary = true -- the decoder side answers in hex (docs/STDIO.md)
	return '{"headers":' .. json_pairs(fields, binary) .. ',"never_indexed":[' .. table.concat(flags, ",") ..
		'],"table":' .. json_pairs(tbl, binary) .. (binary and ',"hex":true}' or "}")
end

-- The decoder side: state is nil (no context) or {context, setting}.
local function decoder_answer(state, line)
	local ok, req = pcall(cjson.decode, line)
	if not ok or type(req) ~= "table" then
		return state, cjson.encode({error = "request is not JSON: " .. tostring(req)})
	end
	if req.op == "hello" then
		return state, cjson.encode({name = name .. " decoder", decoder = true, binary = true, lacks = {"max-header-list"}})
	elseif req.op == "new" then
		return {context = hpack.new(4096), setting = 4096}, "{}"
	elseif req.op == "decode" then
		if state == nil then
			return nil, cjson.encode({error = "decode before new (or after a refused block)"})
		end
		-- Not under pcall: decode_headers refuses a block by returning nil
		-- and its error; an error it raises is a crash, which ends the
		-- adapter (the certifier grades it).
		local text, err = decode(state, req)
		if text == nil then
			return nil, cjson.encode({error = tostring(err)})
		end
		return state, text
	end
	return state, cjson.encode({error = "unknown op " .. tostring(req.op)})
end

if arg[1] == "decoder" then
	local state
	for line in io.lines() do
		local text
		state, text = decoder_answer(state, line)
		io.write(text, "\n")
		io.flush()
	end
	return
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
