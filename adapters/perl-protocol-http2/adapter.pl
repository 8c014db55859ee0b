#!/usr/bin/perl
# hpack-stdio adapter for Protocol::HTTP2's HPACK encoder (Debian
# libprotocol-http2-perl): Protocol::HTTP2::HeaderCompression::headers_encode
# on the encode context of a fresh Protocol::HTTP2::Connection per "new".
# Each acknowledged size goes, in order, through the connection's
# enc_setting(SETTINGS_HEADER_TABLE_SIZE, n), which is what the library does
# for each SETTINGS frame it receives. The answer to hello declares what
# Protocol::HTTP2 cannot express: no never-index API (a sensitive field is
# encoded like any other), and names lowercased by headers_encode. Names and
# values are octet strings (binary form).
use strict;
use warnings;
use JSON::PP;
use Protocol::HTTP2;
use Protocol::HTTP2::Connection;
use Protocol::HTTP2::Constants qw(:settings :endpoints);
use Protocol::HTTP2::HeaderCompression qw(headers_encode);

my $name = "Protocol::HTTP2 $Protocol::HTTP2::VERSION (no never-index API)";
my $json = JSON::PP->new->canonical;
my $conn;
$| = 1;

sub octets {
    my ( $s, $binary ) = @_;
    return pack( 'H*', $s ) if $binary;
    utf8::encode($s);
    return $s;
}

sub encode_block {
    my ($req) = @_;
    die "encode before new\n" unless $conn;
    for my $n ( @{ $req->{table_sizes} } ) {
        $conn->enc_setting( SETTINGS_HEADER_TABLE_SIZE, $n );
    }
    my @headers = map { ( octets( $_->[0], $req->{binary} ), octets( $_->[1], $req->{binary} ) ) } @{ $req->{headers} };
    return unpack( 'H*', headers_encode( $conn->encode_context, \@headers ) );
}

while ( my $line = <STDIN> ) {
    my $req = $json->decode($line);
    my $ans = eval {
        my $op = $req->{op} // '';
        if ( $op eq 'hello' ) {
            { name => $name, binary => JSON::PP::true, lacks => [ 'never-index', 'uppercase-names' ] };
        }
        elsif ( $op eq 'new' ) {
            $conn = Protocol::HTTP2::Connection->new(CLIENT);
            {};
        }
        elsif ( $op eq 'encode' ) {
            { wire => encode_block($req) };
        }
        else {
            { error => "unknown op $op" };
        }
    };
    if ( !defined $ans ) {
        my $err = $@;
        chomp $err;
        $ans = { error => $err };
    }
    print $json->encode($ans), "\n";
}
