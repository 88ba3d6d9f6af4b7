import NIOPosix
import NIOHTTP1
import NIOWebSocket
