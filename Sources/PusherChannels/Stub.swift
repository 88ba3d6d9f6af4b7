import WSClient
import NIOSSL
import Logging
import ServiceLifecycle
import NIOConcurrencyHelpers
