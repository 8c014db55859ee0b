#!/usr/bin/ruby
# hpack-stdio decoder adapter for Ruby's http-2 gem (Debian ruby-http-2),
# the decoder of HTTP2::Connection (not protocol-hpack's).
#
# A fresh HTTP2::Header::Decompressor per "new", with the options
# HTTP2::Connection gives it (table_size 4096); a block's acknowledged table
# size through Decompressor#table_size=, as HTTP2::Connection applies a
# SETTINGS_HEADER_TABLE_SIZE, whenever it differs from the last; each block
# through Decompressor#decode on an HTTP2::Buffer. The Decompressor returns
# bare [name, value] pairs, keeps its table to itself and has no header-list
# limit: the answers have no "never_indexed" nor "table", max_header_list is
# not used, and hello declares "never-indexed" and "max-header-list".
# Names and values are binary strings (binary form).
require 'json'

# A request the adapter cannot serve (not the library's refusal).
class RequestError < StandardError; end
require 'http/2'

NAME = "http-2 #{HTTP2::VERSION} HTTP2::Header::Decompressor decoder"
SETTING_AT_START = 4096

def text(s, binary)
  binary ? s.unpack1('H*') : s.dup.force_encoding(Encoding::UTF_8)
end

# One decoding context: the Decompressor and the setting last given to it.
class Context
  def initialize
    @decompressor = HTTP2::Header::Decompressor.new(table_size: SETTING_AT_START)
    @setting = SETTING_AT_START
  end

  def decode(req)
    wire = req['wire']
    raise RequestError, 'wire is not an even number of hex digits' unless wire.is_a?(String) && wire =~ /\A(\h\h)*\z/
    size = req['table_size']
    raise RequestError, 'table_size is not an integer >= 0' unless size.is_a?(Integer) && size >= 0
    if size != @setting
      @decompressor.table_size = size
      @setting = size
    end
    binary = true # the decoder side answers in hex (docs/STDIO.md)
    fields = @decompressor.decode(HTTP2::Buffer.new([wire].pack('H*')))
    ans = { headers: fields.map { |n, v| [text(n, binary), text(v, binary)] } }
    ans[:hex] = true if binary
    ans
  end
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
        context = Context.new
        {}
      when 'decode'
        raise RequestError, 'decode before new (or after a refused block)' if context.nil?
        context.decode(req)
      else { error: "unknown op #{req['op'].inspect}" }
      end
    rescue HTTP2::Error::Error, RequestError, JSON::ParserError => e
      # The library's own errors are its refusals; any other exception is a
      # crash and ends the adapter (the certifier grades it).
      context = nil
      { error: "#{e.class}: #{e.message}" }
    end
  $stdout.write(JSON.generate(ans), "\n")
end
