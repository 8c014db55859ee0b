{-# LANGUAGE CPP #-}
{-# LANGUAGE OverloadedStrings #-}

-- | hpack-stdio adapter for the HPACK encoder of Haskell's http2 package
-- (Debian libghc-http2-dev), module Network.HPACK.
--
-- The one argument names the 'EncodeStrategy': naive, static or linear
-- (its 'compressionAlgo'), with -huffman for 'useHuffman' = True; linear
-- is what Network.HTTP2 uses, without Huffman. A fresh
-- 'newDynamicTableForEncoding' 4096 per "new"; each acknowledged table
-- size goes, in order, to 'setLimitForEncoding', the API Network.HTTP2
-- calls once per SETTINGS frame; 'encodeHeader' writes the block.
--
-- The answer to hello declares what Network.HPACK cannot express: no
-- never-index API (its encoder never writes a never-indexed literal) and
-- lowercased names (a name becomes a case-folded Token). Several sizes
-- before one block go to setLimitForEncoding one by one, as Network.HTTP2
-- passes several SETTINGS frames; that it keeps only the last is graded
-- (enc/4.2/2), not declared.
-- Names and values are ByteStrings (binary form).
--
-- With the argument decoder it is the decoder side: a fresh
-- 'newDynamicTableForDecoding' 4096 4096 per "new" (the table size, and the
-- room for a Huffman-decoded string, that Network.HTTP2's context gives
-- its decoder); each block through 'decodeHeader', whose exceptions (a
-- 'DecodeError') are its refusals. Network.HPACK has no API that changes a
-- decoding table's limit after it is made (Network.HTTP2 never changes its
-- own SETTINGS_HEADER_TABLE_SIZE), so table_size is not applied: the
-- bound for size updates stays 4096. 'decodeHeader' returns bare pairs,
-- the table has no reader and there is no header-list limit: the answers
-- carry only "headers", max_header_list is not used, and hello declares
-- "never-indexed" and "max-header-list".
module Main (main) where

import Control.Exception (SomeException, displayException, evaluate, try)
import Data.Aeson ((.:), (.:?), (.=))
import qualified Data.Aeson as J
import qualified Data.ByteString as B
import qualified Data.ByteString.Builder as BB
import qualified Data.ByteString.Lazy as BL
import Data.Char (digitToInt, isHexDigit)
import Data.IORef
import Data.Maybe (fromMaybe)
import qualified Data.Text as T
import qualified Data.Text.Encoding as TE
import Network.HPACK
import System.Environment (getArgs)
import System.Exit (exitFailure)
import System.IO

#ifndef HTTP2_VERSION
#define HTTP2_VERSION "unknown"
#endif

-- | One request of hpack-stdio/1.
data Request
  = Hello
  | New
  | Encode Bool [Int] [(T.Text, T.Text)]
  | Decode Bool T.Text
  | Unknown T.Text

instance J.FromJSON Request where
  parseJSON = J.withObject "request" $ \o -> do
    op <- o .: "op"
    case op :: T.Text of
      "hello" -> pure Hello
      "new" -> pure New
      "encode" ->
        Encode
          <$> (fromMaybe False <$> o .:? "binary")
          <*> o .: "table_sizes"
          <*> o .: "headers"
      "decode" ->
        -- The decoder side answers in hex (docs/STDIO.md).
        Decode True <$> o .: "wire"
      _ -> pure (Unknown op)

strategies :: [(String, EncodeStrategy)]
strategies =
  [ (name ++ huff, EncodeStrategy algo h)
    | (name, algo) <- [("naive", Naive), ("static", Static), ("linear", Linear)],
      (huff, h) <- [("", False), ("-huffman", True)]
  ]

-- | What the program serves: an encoder with its strategy, or the decoder.
data Mode = Encoder EncodeStrategy | Decoder

main :: IO ()
main = do
  args <- getArgs
  (label, mode) <- case args of
    ["decoder"] -> pure ("decoder", Decoder)
    [a] | Just s <- lookup a strategies -> pure (a, Encoder s)
    _ -> do
      hPutStrLn stderr $ "usage: adapter STRATEGY, one of " ++ unwords (map fst strategies) ++ ", or: adapter decoder"
      exitFailure
  hSetBinaryMode stdin True
  hSetBinaryMode stdout True
  hSetBuffering stdout (BlockBuffering Nothing)
  table <- newIORef Nothing
  let name = T.pack ("http2 " ++ HTTP2_VERSION ++ " Network.HPACK " ++ label)
      loop = do
        eof <- hIsEOF stdin
        if eof
          then pure ()
          else do
            line <- B.hGetLine stdin
            ans <- answer name mode table line
            BL.hPut stdout (J.encode ans <> "\n")
            hFlush stdout
            loop
  loop

answer :: T.Text -> Mode -> IORef (Maybe DynamicTable) -> B.ByteString -> IO J.Value
answer name mode table line = case J.eitherDecodeStrict line of
  Left err -> pure (failure ("request is not hpack-stdio: " ++ err))
  Right req -> do
    r <- try (serve mode req)
    case r of
      Right ans -> pure ans
      Left e -> do
        -- A decoder's context is dead after a refused block.
        case mode of
          Decoder -> writeIORef table Nothing
          Encoder _ -> pure ()
        pure (failure (displayException (e :: SomeException)))
  where
    serve Decoder Hello =
      pure $
        J.object
          [ "name" .= name,
            "decoder" .= True,
            "binary" .= True,
            "lacks" .= (["never-indexed", "max-header-list"] :: [T.Text])
          ]
    serve Decoder New = do
      newDynamicTableForDecoding defaultDynamicTableSize 4096 >>= writeIORef table . Just
      pure (J.object [])
    serve Decoder (Decode binary wire) = do
      mt <- readIORef table
      case (mt, octets True wire) of
        (Nothing, _) -> pure (failure "decode before new (or after a refused block)")
        (_, Left err) -> pure (failure err)
        (Just dyntbl, Right block) -> do
          hs <- decodeHeader dyntbl block >>= evaluate . forceList
          let text = if binary then hex else TE.decodeUtf8
          pure $
            J.object $
              ["headers" .= [[text n, text v] | (n, v) <- hs]]
                ++ ["hex" .= True | binary]
    serve Decoder (Unknown op) = pure (failure ("unknown op " ++ show op))
    serve Decoder _ = pure (failure "the decoder takes hello, new and decode")
    serve (Encoder stgy) req = serveEncoder stgy req
    serveEncoder _ Hello =
      pure $
        J.object
          [ "name" .= name,
            "binary" .= True,
            "lacks" .= (["never-index", "uppercase-names"] :: [T.Text])
          ]
    serveEncoder _ New = do
      newDynamicTableForEncoding defaultDynamicTableSize >>= writeIORef table . Just
      pure (J.object [])
    serveEncoder stgy (Encode binary sizes headers) = do
      mt <- readIORef table
      case mt of
        Nothing -> pure (failure "encode before new")
        Just dyntbl -> case traverse (both (octets binary)) headers of
          Left err -> pure (failure err)
          Right hs -> do
            mapM_ (`setLimitForEncoding` dyntbl) sizes
            wire <- encodeHeader stgy (bufferSize hs) dyntbl hs >>= evaluate
            pure (J.object ["wire" .= hex wire])
    serveEncoder _ (Decode _ _) = pure (failure "the encoder takes hello, new and encode")
    serveEncoder _ (Unknown op) = pure (failure ("unknown op " ++ show op))
    both f (a, b) = (,) <$> f a <*> f b

-- | Forces every name and value, so that a lazy failure is raised inside
-- the 'try' of its request.
forceList :: HeaderList -> HeaderList
forceList hs = foldr (\(n, v) r -> B.length n `seq` B.length v `seq` r) hs hs

-- | bufferSize is room for the whole block: every octet Huffman-coded at
-- its longest code (30 bits), with the integers and the size update.
bufferSize :: HeaderList -> Int
bufferSize hs = 64 + sum [4 * (B.length n + B.length v) + 16 | (n, v) <- hs]

failure :: String -> J.Value
failure msg = J.object ["error" .= msg]

octets :: Bool -> T.Text -> Either String B.ByteString
octets False s = Right (TE.encodeUtf8 s)
octets True s
  | odd (T.length s) = Left ("odd number of hex digits in " ++ show s)
  | T.all isHexDigit s = Right (B.pack (pairs (T.unpack s)))
  | otherwise = Left ("not hex: " ++ show s)
  where
    pairs (a : b : rest) = fromIntegral (digitToInt a * 16 + digitToInt b) : pairs rest
    pairs _ = []

hex :: B.ByteString -> T.Text
hex = TE.decodeLatin1 . BL.toStrict . BB.toLazyByteString . BB.byteStringHex
