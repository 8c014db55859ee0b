#!/usr/bin/ruby
# hpack-stdio adapter for Ruby's http-2 gem (Debian ruby-http-2), the
# encoder of HTTP2::Connection (not protocol-hpack's).
#
# A fresh HTTP2::Header::Compressor per "new", with the options
# HTTP2::Connection gives it (the defaults: table_size 4096, huffman
# :shorter, index :all); each acknowledged size through
# Compressor#table_size=, in order; each block through Compressor#encode.
# The answer to hello declares what the Compressor cannot express: it has no
# never-index API (EncodingContext makes indexed or incremental commands
# only; its index: :never option makes every field of the context a literal
# without indexing, which is not never-indexed), it puts pseudo-header
# fields first, and it lowercases names.
# Names and values are binary strings (binary form).
require 'json'
require 'http/2'

NAME = "http-2 #{HTTP2::VERSION} HTTP2::Header::Compressor (no never-index API)"

def octets(s, binary)
  binary ? [s].pack('H*') : s.dup.force_encoding(Encoding::BINARY)
end

def encode(compressor, req)
  binary = req['binary'] == true
  headers = req.fetch('headers').map { |n, v| [octets(n, binary), octets(v, binary)] }
  req.fetch('table_sizes').each { |n| compressor.table_size = n }
  compressor.encode(headers).to_s.unpack1('H*')
end

$stdout.sync = true
compressor = nil
$stdin.each_line do |line|
  req = JSON.parse(line)
  ans =
    begin
      case req['op']
      when 'hello' then { name: NAME, binary: true, lacks: %w[never-index pseudo-first uppercase-names] }
      when 'new'
        compressor = HTTP2::Header::Compressor.new
        {}
      when 'encode'
        raise ArgumentError, 'encode before new' if compressor.nil?
        { wire: encode(compressor, req) }
      else { error: "unknown op #{req['op'].inspect}" }
      end
    rescue StandardError => e
      { error: "#{e.class}: #{e.message}" }
    end
  $stdout.write(JSON.generate(ans), "\n")
end
