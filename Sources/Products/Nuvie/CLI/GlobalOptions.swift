import NuvieProjections
import OperatorCLI

typealias GlobalOptions = ProductOptions<NuvieProduct>

