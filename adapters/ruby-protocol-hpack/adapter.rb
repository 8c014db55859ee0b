#!/usr/bin/ruby
# hpack-stdio adapter for protocol-hpack (Debian ruby-protocol-hpack).
#
# A fresh Protocol::HPACK::Context per "new"; each block is encoded the way
# protocol-http2 does it, by a Compressor over that context whose
# table_size_limit is the peer's current setting. The answer to hello
# declares what protocol-hpack cannot express: that API takes one size per
# block (the last one acknowledged), and there is no never-index API (a
# sensitive field is encoded like any other).
# Names and values are binary strings (binary form).
require 'json'
require 'protocol/hpack'

NAME = "protocol-hpack #{Protocol::HPACK::VERSION} (no never-index API; one table size per block)"

def octets(s, binary)
  binary ? [s].pack('H*') : s.dup.force_encoding(Encoding::BINARY)
end

def encode(context, req)
  sizes = req.fetch('table_sizes')
  binary = req['binary'] == true
  headers = req.fetch('headers').map { |n, v| [octets(n, binary), octets(v, binary)] }
  buffer = String.new.b
  Protocol::HPACK::Compressor.new(buffer, context, table_size_limit: sizes.last).encode(headers)
  buffer.unpack1('H*')
end

$stdout.sync = true
context = nil
$stdin.each_line do |line|
  req = JSON.parse(line)
  ans =
    begin
      case req['op']
      when 'hello' then { name: NAME, binary: true, lacks: %w[never-index one-size-update] }
      when 'new'
        context = Protocol::HPACK::Context.new
        {}
      when 'encode'
        raise ArgumentError, 'encode before new' if context.nil?
        { wire: encode(context, req) }
      else { error: "unknown op #{req['op'].inspect}" }
      end
    rescue StandardError => e
      { error: "#{e.class}: #{e.message}" }
    end
  $stdout.write(JSON.generate(ans), "\n")
end
