/// The version of AlbumKit, as `albumkit --version` prints it and `User-Agent` sends it.
public enum AlbumKitVersion {
    public static let current = "0.1.0"
}
