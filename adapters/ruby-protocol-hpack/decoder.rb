#!/usr/bin/ruby
# hpack-stdio decoder adapter for protocol-hpack (Debian ruby-protocol-hpack).
#
# A fresh Protocol::HPACK::Context per "new"; each block is decoded the way
# protocol-http2 decodes a header block, by a Decompressor over that context
# whose table_size_limit is the acknowledged SETTINGS_HEADER_TABLE_SIZE (the
# library's bound for size updates). Decompressor#decode returns the fields
# as [name, value] pairs without their representation, so hello declares
# "never-indexed"; there is no header-list limit, so max_header_list is not
# used and hello declares "max-header-list". The table is Context#table
# (newest first). Names and values are binary strings (binary form).
require 'json'

# A request the adapter cannot serve (not the library's refusal).
class RequestError < StandardError; end
require 'protocol/hpack'

NAME = "protocol-hpack #{Protocol::HPACK::VERSION} decoder"

def text(s, binary)
  binary ? s.unpack1('H*') : s.dup.force_encoding(Encoding::UTF_8)
end

def decode(context, req)
  wire = req['wire']
  raise RequestError, 'wire is not an even number of hex digits' unless wire.is_a?(String) && wire =~ /\A(\h\h)*\z/
  limit = req['table_size']
  raise RequestError, 'table_size is not an integer >= 0' unless limit.is_a?(Integer) && limit >= 0
  binary = true # the decoder side answers in hex (docs/STDIO.md)
  buffer = [wire].pack('H*')
  fields = Protocol::HPACK::Decompressor.new(buffer, context, table_size_limit: limit).decode
  ans = {
    headers: fields.map { |n, v| [text(n, binary), text(v, binary)] },
    table: context.table.map { |n, v| [text(n, binary), text(v, binary)] }
  }
  ans[:hex] = true if binary
  ans
end

$stdout.sync = true
context = nil
$stdin.each_line do |line|
  ans =
    begin
      req = JSON.parse(line)
      case req['op']
      when 'hello' then { name: NAME, decoder: true, binary: true, lacks: %w[never-indexed max-header-list] }
      when 'new'
        context = Protocol::HPACK::Context.new
        {}
      when 'decode'
        raise RequestError, 'decode before new (or after a refused block)' if context.nil?
        decode(context, req)
      else { error: "unknown op #{req['op'].inspect}" }
      end
    rescue Protocol::HPACK::Error, RequestError, JSON::ParserError => e
      # The library's own errors are its refusals; any other exception is a
      # crash and ends the adapter (the certifier grades it).
      context = nil
      { error: "#{e.class}: #{e.message}" }
    end
  $stdout.write(JSON.generate(ans), "\n")
end
