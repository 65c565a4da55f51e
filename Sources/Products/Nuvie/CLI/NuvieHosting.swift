import Logging
import NuvieProjections
import OperatorCLI
import ProductHosting

typealias GlobalOptions = ProductOptions<NuvieProduct>

/// The engine's process-wide bootstrap, for Nuvie.
enum Bootstrap {
    static func logging(level: String) -> Logger { ProductHosting.Bootstrap.logging(NuvieProduct.self, level: level) }
}
