#!/usr/bin/env escript
%% hpack-stdio adapter for cowlib's cow_hpack (Erlang). Debian 12's
%% erlang-cowlib is 1.3.0, which has no cow_hpack; cowlib 2.9.1 ships inside
%% Debian's rabbitmq-server package, from which adapters/install.sh extracts
%% it. Usage: adapter.escript COWLIB_EBIN_DIR
%%
%% A fresh cow_hpack:init() per "new"; each acknowledged size through
%% cow_hpack:set_max_size/2 in order, which cow_http2_machine calls for the
%% peer's SETTINGS_HEADER_TABLE_SIZE; the fields through cow_hpack:encode/2.
%% cow_hpack has no never-index API, which the answer to hello declares (a
%% sensitive field is encoded like any other). Names and values are binaries
%% (binary form).
%%
%% With a second argument, decoder (adapter.escript COWLIB_EBIN_DIR decoder),
%% it is the decoder side: a fresh cow_hpack:init() per "new"; a block's
%% acknowledged table size through cow_hpack:set_max_size/2 whenever it
%% differs from the last, as cow_http2_machine does when its
%% SETTINGS_HEADER_TABLE_SIZE is acknowledged; the block through
%% cow_hpack:decode/2. cow_http2_machine takes any exception of decode/2 as
%% a compression error, and so does the adapter: it is answered {"error"}.
%% cow_hpack:decode/2 returns bare {Name, Value} pairs, keeps its table in an
%% opaque state and has no header-list limit: the answers carry only
%% "headers", max_header_list is not used, and hello declares
%% "never-indexed" and "max-header-list".
-mode(compile).

%% The SETTINGS_HEADER_TABLE_SIZE a decoding context starts with.
-define(SETTING_AT_START, 4096).

main([Ebin]) ->
    Vsn = load(Ebin),
    loop(encoder, iolist_to_binary(["cowlib ", Vsn, " cow_hpack (no never-index API)"]), undefined);
main([Ebin, "decoder"]) ->
    Vsn = load(Ebin),
    loop(decoder, iolist_to_binary(["cowlib ", Vsn, " cow_hpack decoder"]), undefined).

load(Ebin) ->
    true = code:add_patha(Ebin),
    ok = application:load(cowlib),
    {ok, Vsn} = application:get_key(cowlib, vsn),
    ok = io:setopts(standard_io, [binary]),
    Vsn.

loop(Mode, Name, State) ->
    case io:get_line(standard_io, "") of
        eof -> ok;
        {error, _} -> ok;
        Line ->
            {Answer, State2} =
                try handle(Mode, Name, decode(Line), State)
                catch
                    Class:Reason -> {[{<<"error">>, iolist_to_binary(io_lib:format("~p:~0p", [Class, Reason]))}], dead(Mode, State)}
                end,
            ok = file:write(standard_io, [encode(Answer), $\n]),
            loop(Mode, Name, State2)
    end.

handle(Name, Req, State) ->
    case maps:get(<<"op">>, Req, undefined) of
        <<"hello">> -> {[{<<"name">>, Name}, {<<"binary">>, true}, {<<"lacks">>, [<<"never-index">>]}], State};
        <<"new">> -> {[], cow_hpack:init()};
        <<"encode">> when State =:= undefined -> error(encode_before_new);
        <<"encode">> -> encode_block(Req, State);
        Op -> {[{<<"error">>, iolist_to_binary(io_lib:format("unknown op ~0p", [Op]))}], State}
    end.

%% The decoder side: State is undefined (no context) or {Setting, HpackState}.
handle_decoder(Name, Req, State) ->
    case maps:get(<<"op">>, Req, undefined) of
        <<"hello">> ->
            {[{<<"name">>, Name}, {<<"decoder">>, true}, {<<"binary">>, true},
              {<<"lacks">>, [<<"never-indexed">>, <<"max-header-list">>]}], State};
        <<"new">> -> {[], {?SETTING_AT_START, cow_hpack:init()}};
        <<"decode">> when State =:= undefined -> error(decode_before_new_or_after_a_refused_block);
        <<"decode">> -> decode_block(Req, State);
        Op -> {[{<<"error">>, iolist_to_binary(io_lib:format("unknown op ~0p", [Op]))}], State}
    end.

%% The state after an exception: a decoder's context is dead until "new", an
%% encoder's goes on.
dead(decoder, _State) -> undefined;
dead(encoder, State) -> State.

handle(encoder, Name, Req, State) -> handle(Name, Req, State);
handle(decoder, Name, Req, State) -> handle_decoder(Name, Req, State).

decode_block(Req, {Setting0, State0}) ->
    Wire = binary:decode_hex(maps:get(<<"wire">>, Req)),
    Setting = maps:get(<<"table_size">>, Req),
    true = is_integer(Setting) andalso Setting >= 0,
    State1 = case Setting of
        Setting0 -> State0;
        _ -> cow_hpack:set_max_size(Setting, State0)
    end,
    {Headers, State2} = cow_hpack:decode(Wire, State1),
    %% The decoder side answers in hex (docs/STDIO.md).
    Text = fun(B) -> string:lowercase(binary:encode_hex(B)) end,
    {[{<<"headers">>, [[Text(N), Text(V)] || {N, V} <- Headers]}, {<<"hex">>, true}], {Setting, State2}}.

encode_block(Req, State0) ->
    State1 = lists:foldl(fun cow_hpack:set_max_size/2, State0, maps:get(<<"table_sizes">>, Req)),
    Octets = case maps:get(<<"binary">>, Req, false) of
        true -> fun binary:decode_hex/1;
        false -> fun(S) -> S end
    end,
    Headers = [{Octets(N), Octets(V)} || [N, V] <- maps:get(<<"headers">>, Req)],
    {Wire, State2} = cow_hpack:encode(Headers, State1),
    {[{<<"wire">>, string:lowercase(binary:encode_hex(iolist_to_binary(Wire)))}], State2}.

%% JSON, as much as hpack-stdio needs. Strings come out as UTF-8 binaries.

decode(Line) ->
    {Value, Rest} = value(skip(Line)),
    <<>> = skip(Rest),
    Value.

skip(<<C, R/binary>>) when C =:= $\s; C =:= $\t; C =:= $\r; C =:= $\n -> skip(R);
skip(B) -> B.

value(<<${, R/binary>>) -> members(skip(R), #{});
value(<<$[, R/binary>>) -> elements(skip(R), []);
value(<<$", R/binary>>) -> string(R, <<>>);
value(<<"true", R/binary>>) -> {true, R};
value(<<"false", R/binary>>) -> {false, R};
value(<<"null", R/binary>>) -> {null, R};
value(B) -> number(B, <<>>).

members(<<$}, R/binary>>, Acc) -> {Acc, R};
members(<<$", R/binary>>, Acc) ->
    {Key, R1} = string(R, <<>>),
    <<$:, R2/binary>> = skip(R1),
    {Value, R3} = value(skip(R2)),
    case skip(R3) of
        <<$,, R4/binary>> -> members(skip(R4), Acc#{Key => Value});
        <<$}, R4/binary>> -> {Acc#{Key => Value}, R4}
    end.

elements(<<$], R/binary>>, []) -> {[], R};
elements(B, Acc) ->
    {Value, R1} = value(skip(B)),
    case skip(R1) of
        <<$,, R2/binary>> -> elements(skip(R2), [Value | Acc]);
        <<$], R2/binary>> -> {lists:reverse([Value | Acc]), R2}
    end.

string(<<$", R/binary>>, Acc) -> {Acc, R};
string(<<$\\, $u, H:4/binary, $\\, $u, L:4/binary, R/binary>>, Acc)
  when H >= <<"D800">>, H < <<"DC00">>; H >= <<"d800">>, H < <<"dc00">> ->
    Hi = binary_to_integer(H, 16), Lo = binary_to_integer(L, 16),
    string(R, <<Acc/binary, (16#10000 + ((Hi - 16#D800) bsl 10) + (Lo - 16#DC00))/utf8>>);
string(<<$\\, $u, H:4/binary, R/binary>>, Acc) ->
    string(R, <<Acc/binary, (binary_to_integer(H, 16))/utf8>>);
string(<<$\\, C, R/binary>>, Acc) ->
    Out = case C of $b -> $\b; $f -> $\f; $n -> $\n; $r -> $\r; $t -> $\t; _ -> C end,
    string(R, <<Acc/binary, Out>>);
string(<<C, R/binary>>, Acc) -> string(R, <<Acc/binary, C>>).

number(<<C, R/binary>>, Acc) when C >= $0, C =< $9; C =:= $-; C =:= $.; C =:= $e; C =:= $E; C =:= $+ ->
    number(R, <<Acc/binary, C>>);
number(R, Acc) ->
    N = try binary_to_integer(Acc) catch error:badarg -> binary_to_float(Acc) end,
    {N, R}.

encode(Members) ->
    ["{", lists:join(",", [[quote(K), ":", encode_value(V)] || {K, V} <- Members]), "}"].

encode_value(true) -> "true";
encode_value(L) when is_list(L) -> ["[", lists:join(",", [encode_value(V) || V <- L]), "]"];
encode_value(B) when is_binary(B) -> quote(B).

quote(B) ->
    [$", [escape(C) || <<C>> <= B], $"].

escape($") -> "\\\"";
escape($\\) -> "\\\\";
escape(C) when C < 16#20; C > 16#7e -> io_lib:format("\\u~4.16.0b", [C]);
escape(C) -> C.
