print("notif")
