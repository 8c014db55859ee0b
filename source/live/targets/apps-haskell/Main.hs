{-# LANGUAGE OverloadedStrings #-}

-- | A warp server for hpackcert live (h2c with prior knowledge, or TLS
-- with ALPN h2 through warp-tls) whose application answers every request
-- with hpackcert's origin's response for the same path, fetched over
-- HTTP/1.1: status, fields in order, body. warp's HTTP/2 (the http2
-- package's HPACK encoder) writes the script's fields.
--
-- Usage: hpackcert-warp --listen HOST:PORT --origin HOST:PORT
--                       [--cert PEM --key PEM]
module Main (main) where

import Control.Exception (bracket)
import qualified Data.ByteString as B
import Data.ByteString.Builder (byteStringHex, char7, toLazyByteString)
import qualified Data.ByteString.Char8 as C
import qualified Data.ByteString.Lazy as L
import qualified Data.CaseInsensitive as CI
import Data.Char (toLower)
import Data.String (fromString)
import Network.HTTP.Types (mkStatus)
import Network.Socket
import Network.Socket.ByteString (recv, sendAll)
import Network.Wai (Application, rawPathInfo, rawQueryString, requestHeaders, requestMethod, responseLBS)
import Network.Wai.Handler.Warp (defaultSettings, runSettings, setHost, setPort)
import Network.Wai.Handler.WarpTLS (runTLS, tlsSettings)
import System.Environment (getArgs)
import System.Exit (die)

data Options = Options
  { listenAt :: Maybe (String, String),
    originAt :: Maybe (String, String),
    certFile :: Maybe FilePath,
    keyFile :: Maybe FilePath
  }

parseArgs :: [String] -> Options -> Either String Options
parseArgs [] o = Right o
parseArgs ("--listen" : a : rest) o = parseArgs rest o {listenAt = Just (hostPort a)}
parseArgs ("--origin" : a : rest) o = parseArgs rest o {originAt = Just (hostPort a)}
parseArgs ("--cert" : a : rest) o = parseArgs rest o {certFile = Just a}
parseArgs ("--key" : a : rest) o = parseArgs rest o {keyFile = Just a}
parseArgs (a : _) _ = Left ("unknown option " ++ a)

-- | Splits HOST:PORT at its last colon.
hostPort :: String -> (String, String)
hostPort s = let (p, h) = break (== ':') (reverse s) in (reverse (drop 1 h), reverse p)

main :: IO ()
main = do
  argv <- getArgs
  let usage = "usage: hpackcert-warp --listen HOST:PORT --origin HOST:PORT [--cert PEM --key PEM]"
  o <- either (die . (++ "; " ++ usage)) pure (parseArgs argv (Options Nothing Nothing Nothing Nothing))
  (host, port) <- maybe (die usage) pure (listenAt o)
  origin <- maybe (die usage) pure (originAt o)
  let settings = setHost (fromString host) (setPort (read port) defaultSettings)
  case (certFile o, keyFile o) of
    (Just c, Just k) -> runTLS (tlsSettings c k) settings (relay origin)
    (Nothing, Nothing) -> runSettings settings (relay origin)
    _ -> die usage

-- | Answers each request with the origin's response for its path. warp
-- puts its own date and server in every response, even one that has
-- them, so the origin's are left out rather than sent twice.
relay :: (String, String) -> Application
relay origin req respond = do
  let path = rawPathInfo req <> rawQueryString req
      seen = (":method", requestMethod req) : (":path", path) : [(CI.original n, v) | (n, v) <- requestHeaders req]
  (status, fields, body) <- fetch origin path (echo seen)
  let kept = [(CI.mk n, v) | (n, v) <- fields, n /= "date", n /= "server"]
  respond (responseLBS (mkStatus status "") kept (L.fromStrict body))

-- | The origin's echo (source/live/decoderorigin.go): the fields the app
-- was given, each as hex(name)=hex(value), separated by commas.
echo :: [(B.ByteString, B.ByteString)] -> B.ByteString
echo fields = B.intercalate "," [L.toStrict (toLazyByteString (byteStringHex n <> char7 '=' <> byteStringHex v)) | (n, v) <- fields]

-- | Fetches path from the origin on a connection of its own, with the
-- echo of the request, and returns its status, fields (names in lower
-- case) and body.
fetch :: (String, String) -> B.ByteString -> B.ByteString -> IO (Int, [(B.ByteString, B.ByteString)], B.ByteString)
fetch (host, port) path seen = do
  addr : _ <- getAddrInfo (Just defaultHints {addrSocketType = Stream}) (Just host) (Just port)
  bracket (socket (addrFamily addr) Stream defaultProtocol) close $ \s -> do
    connect s (addrAddress addr)
    sendAll s (B.concat ["GET ", path, " HTTP/1.1\r\nHost: ", C.pack (host ++ ":" ++ port), "\r\nConnection: close\r\nx-hpackcert-echo: ", seen, "\r\n\r\n"])
    response <- readAll s []
    let (headText, rest) = B.breakSubstring "\r\n\r\n" response
    case splitLines headText of
      statusLine : fieldLines
        | (_ : code : _) <- C.words statusLine,
          [(status, "")] <- reads (C.unpack code) ->
            pure (status, map field fieldLines, B.drop 4 rest)
      _ -> ioError (userError ("origin: bad response head " ++ show (B.take 200 headText)))
  where
    readAll s acc = do
      chunk <- recv s 65536
      if B.null chunk then pure (B.concat (reverse acc)) else readAll s (chunk : acc)
    field line =
      let (name, value) = C.break (== ':') line
       in (C.map toLower name, strip (B.drop 1 value))
    strip = C.dropWhile isWhite . C.dropWhileEnd isWhite
    isWhite c = c == ' ' || c == '\t'

-- | Splits a response head at each CRLF.
splitLines :: B.ByteString -> [B.ByteString]
splitLines b
  | B.null b = []
  | otherwise = let (line, rest) = B.breakSubstring "\r\n" b in line : splitLines (B.drop 2 rest)
