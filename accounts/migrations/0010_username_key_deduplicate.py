from django.db import migrations


def deduplicate(apps, schema_editor):
    """Before the key becomes unique: accounts whose names already look alike keep working, the
    oldest with the plain key, each later one with "<key>#<id>" (accounts.usernames)."""
    from accounts import usernames

    usernames.refresh_keys(apps.get_model("accounts", "User"))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_username_key"),
    ]

    operations = [
        migrations.RunPython(deduplicate, migrations.RunPython.noop),
    ]
