import Hummingbird
import JWTKit
import AsyncHTTPClient
