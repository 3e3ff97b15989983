package struct BackdropMaskFilter { package var saturation: Double; package var brightness: Double
  package init(saturation: Double, brightness: Double) { self.saturation = saturation; self.brightness = brightness } }
extension GraphicsContext { package func endTransparencyLayer(maskingBackdropWith f: BackdropMaskFilter) { endTransparencyLayer() } }
