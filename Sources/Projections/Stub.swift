import GRDB
import ServiceLifecycle
