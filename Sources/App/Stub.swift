import Hummingbird
import Prometheus
