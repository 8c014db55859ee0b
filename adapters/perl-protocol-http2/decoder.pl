#!/usr/bin/perl
# hpack-stdio decoder adapter for Protocol::HTTP2's HPACK decoder (Debian
# libprotocol-http2-perl): Protocol::HTTP2::HeaderCompression::headers_decode
# on the decode context of a fresh Protocol::HTTP2::Connection per "new".
# A block's acknowledged table size goes through the connection's
# dec_setting(SETTINGS_HEADER_TABLE_SIZE, n), the setting headers_decode
# bounds size updates by, whenever it differs from the last. The fields are
# the context's emitted_headers, cleared before each block as
# Protocol::HTTP2::Stream clears them after a header block; the table is the
# context's header_table (newest first). headers_decode does not tell
# never-indexed literals apart and applies no header-list limit (hello
# declares "never-indexed" and "max-header-list"; max_header_list is not
# used). A refusal is headers_decode returning undef; the library's tracer
# prints why on the selected output, which the adapter captures for the
# error text. Names and values are octet strings (binary form).
use strict;
use warnings;
use JSON::PP;
use Protocol::HTTP2;
use Protocol::HTTP2::Connection;
use Protocol::HTTP2::Constants qw(:settings :endpoints);
use Protocol::HTTP2::HeaderCompression qw(headers_decode);

my $name = "Protocol::HTTP2 $Protocol::HTTP2::VERSION decoder";
my $json = JSON::PP->new->canonical;
my ( $conn, $setting );
$| = 1;

sub text {
    my ( $s, $binary ) = @_;
    return unpack( 'H*', $s ) if $binary;
    utf8::decode($s);
    return $s;
}

sub pairs {
    my ( $list, $binary ) = @_;
    my @out;
    for ( my $i = 0 ; $i + 1 < @$list ; $i += 2 ) {
        push @out, [ text( $list->[$i], $binary ), text( $list->[ $i + 1 ], $binary ) ];
    }
    return \@out;
}

sub decode_block {
    my ($req) = @_;
    die "decode before new (or after a refused block)\n" unless $conn;
    my $wire = $req->{wire};
    die "decode needs wire, an even number of hex digits\n"
      unless defined $wire && !ref $wire && $wire =~ /\A(?:[0-9a-fA-F]{2})*\z/;
    my $size = $req->{table_size};
    die "decode needs table_size, an integer >= 0\n"
      unless defined $size && !ref $size && $size =~ /\A[0-9]+\z/;
    if ( $size != $setting ) {
        $conn->dec_setting( SETTINGS_HEADER_TABLE_SIZE, $size + 0 );
        $setting = $size + 0;
    }
    my $buf     = pack( 'H*', $wire );
    my $context = $conn->decode_context;
    $context->{emitted_headers} = [];
    open( my $trace, '>', \my $said ) or die "cannot capture the tracer: $!\n";
    my $old = select($trace);
    my $done = headers_decode( $conn, \$buf, 0, length($buf), 1 );
    select($old);
    close($trace);
    if ( !defined $done ) {
        $said //= '';
        $said =~ s/^\s+|\s+$//g;
        die( ( $said ne '' ? $said : 'headers_decode refused the block' ) . "\n" );
    }
    my $ans = {
        headers => pairs( $context->{emitted_headers}, 1 ),
        table   => [ map { [ text( $_->[0], 1 ), text( $_->[1], 1 ) ] } @{ $context->{header_table} } ],
    };
    $ans->{hex} = JSON::PP::true if 1;
    return $ans;
}

while ( my $line = <STDIN> ) {
    my $ans = eval {
        my $req = $json->decode($line);
        my $op  = $req->{op} // '';
        if ( $op eq 'hello' ) {
            {
                name    => $name,
                decoder => JSON::PP::true,
                binary  => JSON::PP::true,
                lacks   => [ 'never-indexed', 'max-header-list' ]
            };
        }
        elsif ( $op eq 'new' ) {
            $conn    = Protocol::HTTP2::Connection->new(CLIENT);
            $setting = $conn->dec_setting(SETTINGS_HEADER_TABLE_SIZE);
            {};
        }
        elsif ( $op eq 'decode' ) {
            decode_block($req);
        }
        else {
            { error => "unknown op $op" };
        }
    };
    if ( !defined $ans ) {
        my $err = $@;
        chomp $err;
        $conn = undef;
        $ans  = { error => $err };
    }
    print $json->encode($ans), "\n";
}
